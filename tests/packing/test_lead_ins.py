"""The break after a lead-in, a line ending in a colon, which smart passes over while
another break is in reach (policies.follows_lead_in; measured in bench/retrieval.py,
issue 31)."""
from __future__ import annotations

import dataclasses

import chunkwise
from chunkwise.packing import strategies
from chunkwise.packing.policies import follows_lead_in


def _break_after(text: str, line: str) -> int:
    return text.index(line) + len(line)


def test_a_line_ending_in_a_colon_leads_in_a_title_a_row_or_a_sentence_does_not():
    text = ("Revenue grew.\n\nThe table sets forth revenue by segment (in millions):\n\nCloud   $ 1,200\n"
            "Devices $   900\n\nNote 4. Income taxes\n\nThe effective tax rate was 21% in 2023, and 19% in 2022.\n"
            "他的問題就是：\n下一行\n")
    assert follows_lead_in(text, _break_after(text, "(in millions):"))
    assert follows_lead_in(text, _break_after(text, "(in millions):\n"))  # (whitespace before the cut is read past)
    assert follows_lead_in(text, _break_after(text, "問題就是："))  # a full-width colon
    emphasis = "**Example:**\n\n    run()\n\n_Note:_\nlater\n**Done.**\n"
    assert follows_lead_in(emphasis, _break_after(emphasis, "**Example:**"))  # Markdown emphasis around it
    assert follows_lead_in(emphasis, _break_after(emphasis, "_Note:_"))
    assert not follows_lead_in(emphasis, _break_after(emphasis, "**Done.**"))
    assert not follows_lead_in(text, _break_after(text, "Note 4. Income taxes"))  # a title may end a chunk
    assert not follows_lead_in(text, _break_after(text, "Cloud   $ 1,200"))
    assert not follows_lead_in(text, _break_after(text, "Revenue grew."))
    assert not follows_lead_in(text, 0)
    code = "        return result\n\n    def _expand_help(self, action):\n        params = dict(vars(action))\n"
    assert not follows_lead_in(code, _break_after(code, "return result"))  # (a title rule read this as one)
    assert follows_lead_in(code, _break_after(code, "(self, action):"))
    far = "Lead-in:" + " " * 300 + "\n\nText."  # a colon farther back than the whitespace read is not looked for
    assert not follows_lead_in(far, far.index("\n"))


def _smart(monkeypatch, balance):
    monkeypatch.setitem(strategies.SPECS, "smart", dataclasses.replace(strategies.SPECS["smart"], balance=balance))


def test_smart_keeps_a_table_with_its_caption_and_a_list_with_its_lead_in(monkeypatch):
    intro = "Revenue increased by 12% compared with the prior year, driven by growth in cloud services. " * 4
    caption = "The following table sets forth revenue by segment (in millions):"
    table = "\n".join(f"Segment {i:<10} $ {1000 + 37 * i:>6,}   $ {900 + 41 * i:>6,}" for i in range(6))
    text = f"{intro}\n\n{caption}\n\n{table}\n\nThe rest of the discussion follows here. " + "More prose. " * 40

    def orphans(chunks):
        return [c.text.rstrip().endswith(caption) for c in chunks]

    chunks = chunkwise.chunk(text, max_tokens=200, overlap=0)  # the default
    assert not any(orphans(chunks))
    assert any(caption in c.text and "Segment 5" in c.text for c in chunks)
    _smart(monkeypatch, strategies.Balance(lead_ins=False))  # the rule before: the caption ends a chunk
    assert any(orphans(chunkwise.chunk(text, max_tokens=200, overlap=0)))


def test_where_only_the_break_after_a_lead_in_is_in_reach_smart_still_cuts_there():
    # two paragraphs of about 150 tokens each at a budget of 200: the one break in reach follows a colon
    first = "word " * 140 + "as follows:"
    text = f"{first}\n\n" + "more " * 150
    chunks = chunkwise.chunk(text, max_tokens=200, overlap=0)
    assert chunks[0].text == first


def test_a_lead_in_break_is_taken_only_when_nothing_else_is_in_reach_and_then_the_nearest():
    # the one break in reach follows a colon at 58 tokens: taken, not a word cut at the budget
    text = "word " * 55 + "as follows:\n\n" + "more " * 300
    assert chunkwise.chunk(text, max_tokens=200, overlap=0)[0].text.endswith("as follows:")
    # a break after the aim that follows a colon is passed over too, for one before it
    text = "word " * 78 + "end.\n\n" + "word " * 60 + "as follows:\n\n" + "more " * 200
    assert chunkwise.chunk(text, max_tokens=200, overlap=0)[0].text.endswith("end.")
    # two lead-ins and nothing else: the one nearer the aim (130 tokens), at 134, not the first at 80
    text = "word " * 78 + "first:\n\n" + "word " * 52 + "second:\n\n" + "more " * 300
    assert chunkwise.chunk(text, max_tokens=200, overlap=0)[0].text.endswith("second:")


def test_before_fenced_code_the_lead_in_goes_with_the_block(monkeypatch):
    # a window that meets fenced code is cut structure-first; the paragraph break after
    # "...amount of time:" would end the chunk, the one before the lead-in does
    intro = "The server emits an error when the address is in use. " * 14
    lead = "One way to handle this is to retry after a certain amount of time:"
    code = "```js\n" + "".join(f"server.on('error{i}', (e) => {{\n  setTimeout(() => server.listen(PORT, HOST), {i}000);\n}});\n"
                               for i in range(6)) + "```"
    text = f"{intro}\n\n{lead}\n\n{code}\n\nAfter the retry the server listens again. " + "More prose here. " * 60
    for size in (200, 256):
        chunks = chunkwise.chunk(text, max_tokens=size, overlap=0)
        assert chunks[0].text == intro.rstrip() and chunks[1].text.startswith(lead + "\n\n```js")
    _smart(monkeypatch, strategies.Balance(lead_ins=False))
    assert chunkwise.chunk(text, max_tokens=256, overlap=0)[0].text.endswith(lead)
