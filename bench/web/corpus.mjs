// The benchmark's mixed text: the repository's test corpus (Markdown docs, prose,
// source code, Russian, CJK), joined with blank lines and repeated to a length.
export const CORPUS_FILES = ["node-net.md", "gpl-3.txt", "argparse.py.txt", "russian.txt", "cjk.txt"];

export async function corpusTexts(base) {
  return Promise.all(CORPUS_FILES.map(async (name) => {
    const res = await fetch(new URL(name, base));
    if (!res.ok) throw new Error(`${name}: HTTP ${res.status}`);
    return res.text();
  }));
}

// `chars` UTF-16 units (a dangling high surrogate at the end is dropped).
export function mixedText(texts, chars) {
  const block = texts.join("\n\n");
  const parts = [];
  let size = 0;
  while (size < chars) { parts.push(block); size += block.length + 2; }
  let text = parts.join("\n\n").slice(0, chars);
  const last = text.charCodeAt(text.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) text = text.slice(0, -1);
  return text;
}
