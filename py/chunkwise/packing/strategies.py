"""What each strategy may cut at and how it picks among its cuts: data only.
The packing routine (packer.py) has one small policy per kind of picking (policies.py)."""
from __future__ import annotations

from dataclasses import dataclass

from ..types import DEFINITION, HEADING, LINE, NESTED, PARAGRAPH, PHRASE, ROW, SENTENCE, STATEMENT, WORD

END = -1  # the pseudo level of the document's end
LADDER = (HEADING, PARAGRAPH, ROW, LINE, SENTENCE, PHRASE, WORD)  # ROW: between table rows
# The code ladder: between top-level definitions, between nested ones (methods),
# blank lines, then line ends outside strings and comments (each at the shallowest
# depth), then any line end, then words. See code/cuts.py.
CODE_LADDER = (DEFINITION, NESTED, PARAGRAPH, STATEMENT, LINE, WORD)
# The code ladder's levels outside strings and comments: while one of them fits,
# no cut falls inside a string or a comment.
CODE_STRUCTURE = (DEFINITION, NESTED, PARAGRAPH, STATEMENT)

# smart on prose: the strongest of these levels with a cut that leaves the chunk
# at least LEAST_FILL of the budget, and of that level's cuts the one nearest to
# where the chunk holds AIM_FILL of it. Chunks that end at the strongest break
# about two-thirds full are retrieved better than chunks packed to the budget
# (bench/retrieval.py, measured beside LangChain's splitters; README "Retrieval").
BALANCED_LEVELS = (HEADING, PARAGRAPH, ROW, LINE, SENTENCE)
LEAST_FILL = 0.25
AIM_FILL = 0.65


@dataclass(frozen=True)
class Balance:
    """How smart places its cuts among the BALANCED_LEVELS' breaks (policies.balanced_cut):
    the strongest level with a cut that leaves at least least_fill of the budget of new
    text, and of its cuts the one nearest aim_fill. (A cost per level traded against the
    size, alone or planned over four budgets by dynamic programming, was measured by
    leave-one-corpus-out and did no better: issue 31.)"""

    least_fill: float | None = LEAST_FILL  # None: 2 * aim_fill - 1 (the aim midway between it and the budget)
    aim_fill: float = AIM_FILL
    lead_ins: bool = True  # pass over a paragraph, row or line break after a line ending in a colon (policies.follows_lead_in)


SMART_BALANCE = Balance()

# Below BALANCED_LEVELS (and in the strategies that split an oversized unit): the
# strongest cut that keeps the chunk at least this full (share of the budget);
# weaker levels must fill more to be worth it.
MIN_FILL = {
    HEADING: 0.25, DEFINITION: 0.25, NESTED: 0.4, PARAGRAPH: 0.5, ROW: 0.5, STATEMENT: 0.6, LINE: 0.6,
    SENTENCE: 0.6, PHRASE: 0.75, WORD: 0.8,
}

# How a strategy picks a cut among the candidates in reach (see policies.POLICIES):
STRUCTURE = "structure"  # the strongest break, about two-thirds full (AIM_FILL); else MIN_FILL
FARTHEST = "farthest"  # the farthest cut of its levels; a unit too big for the budget is
#                        split structure-first at the levels below them
SECTIONS = "sections"  # a cut before every heading, even when the rest would fit; then FARTHEST
WINDOWS = "windows"  # fixed token windows: a cut between tokens only
TOPICS = "topics"  # where the topic shifts most for the cut's strength (packing/topics.py); else STRUCTURE
CODE = "code"  # STRUCTURE on the code ladder, the shallowest cut of a level first, and
#                never inside a string or comment while a cut outside one fits
# Another library's splitter, reproduced exactly as a reference to compare with: a
# whole-document algorithm of its own (packing/langchain.py), not a policy of the
# packer. It keeps that library's behaviour, not chunkwise's contract (README): a
# chunk may go over the budget or start mid-sentence; settings the library lacks
# (overlap_unit, context, parents) do not apply.
REFERENCE = "reference"


@dataclass(frozen=True)
class Strategy:
    name: str
    label: str  # as the page names it
    help: str  # one sentence: the CLI's --help, the page and the README read it
    kind: str  # STRUCTURE, TOPICS, FARTHEST, SECTIONS, WINDOWS, CODE or REFERENCE
    levels: tuple[int, ...]  # where the strategy may cut; strongest first
    # Where an overlap may start with overlap_unit="unit": the starts of these
    # levels' units, strongest group first (see settings.overlap_range for how far
    # from the requested overlap); None: between tokens (the fixed windows).
    overlap_starts: tuple[tuple[int, ...], ...] | None = ((PARAGRAPH, LINE, SENTENCE),)
    # True: an overlap is whole units or none: where no unit start lies within half the
    # budget of the chunk's end, no overlap rather than one that starts mid-sentence
    # (unless overlap_unit="word"). False: a word start then.
    whole_units: bool = False
    balance: Balance | None = None  # (smart: how its cuts are placed)

    @property
    def fallback_levels(self) -> tuple[int, ...]:
        """When a unit is over budget: the smart ladder below the strategy's weakest level."""
        if not self.levels:
            return ()
        weakest = max(self.levels)
        return tuple(level for level in LADDER if level > weakest)


SPECS = {
    s.name: s
    for s in (
        Strategy(
            "smart",
            "Smart",
            "Structure first: cuts before headings, then at blank lines, line breaks, sentence ends,"
            " phrase breaks and words, and only then between tokens; of the strongest breaks, the one"
            " nearest two-thirds of the budget, and not right after a line that ends in a colon while"
            " another such break is in reach.",
            STRUCTURE,
            LADDER,
            whole_units=True,
            balance=SMART_BALANCE,
        ),
        Strategy(
            "topics",
            "Topic shifts",
            "Cuts where the topic shifts: of the heading, paragraph, line and sentence breaks that keep"
            " a chunk at least a quarter full, the one whose two sides share the fewest words, for its strength;"
            " about 2-3 times smart's time.",
            TOPICS,
            LADDER,
            whole_units=True,
        ),
        Strategy(
            "paragraphs",
            "Paragraphs",
            "Whole paragraphs (blank-line blocks) packed together; a paragraph is split only if it alone is too big.",
            FARTHEST,
            (HEADING, PARAGRAPH),
            overlap_starts=((PARAGRAPH,), (LINE, SENTENCE)),
            whole_units=True,
        ),
        Strategy(
            "markdown",
            "Markdown headings",
            "One chunk per Markdown heading section (a heading with no text of its own joins the next);"
            " long sections are split further.",
            SECTIONS,
            (HEADING,),
            whole_units=True,
        ),
        Strategy("lines", "Lines", "Whole lines packed together: logs, CSV, lists.", FARTHEST, (HEADING, PARAGRAPH, ROW, LINE),
                 overlap_starts=((PARAGRAPH, LINE), (SENTENCE,))),  # long lines of prose: a sentence before a word
        Strategy("sentences", "Sentences", "Whole sentences packed together (a sentence is split only if it alone is too big);"
                 " an overlap is whole sentences or none.", FARTHEST,
                 (HEADING, PARAGRAPH, ROW, SENTENCE), whole_units=True),
        Strategy("tokens", "Fixed tokens", "Fixed windows of tokens: the naive baseline, ignores structure.", WINDOWS, (), overlap_starts=None),
        Strategy(
            "code",
            "Code",
            "Source code: cuts between definitions (with their comments and decorators), then between"
            " nested ones, at blank lines and line ends outside strings and comments, shallowest first;"
            " smart does this by itself when the language is known.",
            CODE,
            CODE_LADDER,
            overlap_starts=((DEFINITION, NESTED), (PARAGRAPH, STATEMENT), (LINE,)),
        ),
        Strategy(
            "langchain-recursive",
            "LangChain recursive (reference)",
            "LangChain's RecursiveCharacterTextSplitter, exactly (from_tiktoken_encoder with chunk_size=max_tokens,"
            " chunk_overlap=overlap): splits at blank lines, then line breaks, spaces and characters, and merges"
            " the pieces greedily; to compare with, not chunkwise's contract: a chunk may go over the budget"
            " (its pieces' counts are summed) or start mid-sentence.",
            REFERENCE,
            (),
            overlap_starts=None,
        ),
    )
}

STRATEGIES = tuple(SPECS)  # the names, in the order the CLI, the page and the README list them
# The reference strategies (another library's splitter, kept as it is): every other
# strategy keeps the README's guarantees; these keep their library's behaviour.
REFERENCES = tuple(name for name, s in SPECS.items() if s.kind == REFERENCE)
OWN_STRATEGIES = tuple(name for name in STRATEGIES if name not in REFERENCES)  # (the contract tests run these)
