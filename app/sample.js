// The sample document a first visit shows, chunked, until the user pastes, types or
// opens their own: one of each structure the page marks (a heading hierarchy, prose,
// a list, a pipe table, a code fence, a hard-wrapped paragraph). It lives in the
// document view only (the text box stays empty for the user's text) and is never
// kept across a reload as if the user had typed it (session.js).

// Set once this browser has chunked a text of its user's own: the sample is not shown again.
export const OWN_TEXT_KEY = "chunkwise.own-text.v1";

export const SAMPLE_NOTICE = "Sample document — paste or open your own. It is here to show what the page marks: headings, prose, a list, a table, code and a hard-wrapped paragraph.";

export function wanted() {
  try { return !localStorage.getItem(OWN_TEXT_KEY); } catch { return false; }
}

export function ownTextSeen() {
  try { localStorage.setItem(OWN_TEXT_KEY, "1"); } catch { /* storage disabled: the sample shows again */ }
}

export const SAMPLE_TEXT = `# Sample document: how a text becomes chunks

This is a sample. Paste a document into the box above, or open a file, and it takes
this one's place: nothing you paste or open leaves this tab.

## Why chunk a document

A retrieval system does not embed a whole book at once. It embeds pieces small enough for the model, searches them, and hands the best few to a language model as context. Each piece should be about one thing and end where a reader would pause: a chunk that stops in the middle of a sentence answers half a question, and one that runs across two sections answers neither well. The chunk size is a budget in tokens, counted exactly in the tokenizer you choose, never guessed from the number of characters.

### Structure first, size second

The smart strategy cuts at the strongest break that keeps a chunk reasonably full. Before a heading is the strongest; then a blank line, a line break, the end of a sentence, a comma or a semicolon, the space between two words, and only as a last resort the boundary between two tokens. Each chunk in the view ends with a mark that says which of these it was.

### What overlap is for

Overlap repeats the end of one chunk at the start of the next, so that a sentence near a cut is found from either side. It costs tokens from the same budget: the view shows it shaded, and the stats say how much of the output it takes. A chunk that starts at a heading repeats nothing, since an overlap never crosses one.

## Choosing the settings

- **Strategy**: smart for most prose; paragraphs or Markdown headings to keep whole blocks or sections; lines for logs and CSV.
- **Chunk size**: what the embedding model reads whole, or less; smaller chunks are more precise and larger ones carry more context.
- **Overlap**: about an eighth of the size is the default; none when the chunks are whole sections anyway.
- **Tokenizer**: the one your embedding model counts with.

## Sizes at a glance

| Model family | Tokenizer | Reads at most | A good chunk size |
| --- | --- | --- | --- |
| OpenAI text-embedding-3 | cl100k_base | 8,191 tokens | 256 to 1,024 |
| GPT-4o and later | o200k_base | 128,000 tokens | 512 to 2,048 |
| Sentence transformers | WordPiece | 256 to 512 tokens | the model's limit |

## The same run in Python

\`\`\`python
import chunkwise

text = open("handbook.md", encoding="utf-8").read()
for chunk in chunkwise.chunk(text, max_tokens=512, strategy="smart"):
    # every chunk is an exact slice of the text, with its offsets
    assert text[chunk.start:chunk.end] == chunk.text
    print(chunk.index, chunk.token_count, chunk.boundary, chunk.headings)
\`\`\`

## A paragraph wrapped by hand

Plain-text files often break their lines at a fixed width, as this
paragraph does: the line ends inside it are not the ends of sentences
or of thoughts, only of the lines of an editor that was seventy-two
columns wide. The engine reads such a line end as a space between
words, not as a break between lines, so a cut does not fall here
merely because a line happened to end.
`;
