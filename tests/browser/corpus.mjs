// Deterministic test documents.

const WORDS = ("retrieval chunk token budget overlap heading paragraph sentence boundary vector index " +
  "query answer model context window document section embedding search ranking latency cache " +
  "structure separator ladder greedy packing exact count offset slice whitespace unicode").split(" ");

// A small linear congruential generator: the same "random" text on every run.
export function rng(seed = 42) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

export function sentence(rand, min = 6, max = 22) {
  const n = min + Math.floor(rand() * (max - min));
  const words = Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]);
  // Phrase breaks inside long sentences give the engine weaker cut points too.
  if (n > 12) words[Math.floor(n / 2)] += rand() < 0.5 ? "," : ";";
  words[0] = words[0][0].toUpperCase() + words[0].slice(1);
  return words.join(" ") + (rand() < 0.8 ? "." : "?");
}

export function paragraph(rand, sentences = 4) {
  return Array.from({ length: sentences }, () => sentence(rand)).join(" ");
}

// Markdown with nested headings, paragraphs of varied length, a list and a code fence.
export function markdownDoc(seed = 7, sections = 6) {
  const rand = rng(seed);
  const parts = ["# Retrieval handbook", "", paragraph(rand, 3), ""];
  for (let s = 1; s <= sections; s++) {
    parts.push(`## Part ${s}: ${sentence(rand, 2, 4).replace(/[.?]$/, "")}`, "");
    for (let p = 0; p < 3; p++) parts.push(paragraph(rand, 3 + Math.floor(rand() * 12)), "");
    if (s % 2 === 0) {
      parts.push(`### Details of part ${s}`, "");
      parts.push(...Array.from({ length: 4 }, () => `- ${sentence(rand, 3, 9)}`), "");
      parts.push("```python", "# not a heading inside a fence", "def cut(text):", "    return text.split('\\n\\n')", "```", "");
    }
  }
  return parts.join("\n");
}

// Text full of characters outside the Basic Multilingual Plane (two UTF-16
// units each) mixed with BMP text, so every offset conversion is exercised.
export function astralDoc(seed = 3, paragraphs = 12) {
  const rand = rng(seed);
  const astral = ["😀", "🎉", "👩‍💻", "🇩🇪", "🧪", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "𠀀𠀁𠀂", "🏳️‍🌈", "👍🏽", "𓀀𓀁", "🀄", "🫠"];
  const out = [];
  for (let p = 0; p < paragraphs; p++) {
    const words = [];
    const n = 20 + Math.floor(rand() * 40);
    for (let w = 0; w < n; w++) {
      const r = rand();
      if (r < 0.3) words.push(astral[Math.floor(rand() * astral.length)]);
      else if (r < 0.4) words.push("naïve café 東京 Ελληνικά");
      else words.push(WORDS[Math.floor(rand() * WORDS.length)]);
      if (rand() < 0.08) words[words.length - 1] += ".";
    }
    out.push((p % 4 === 0 ? `## Emoji ${astral[p % astral.length]} section ${p}\n\n` : "") + words.join(" ") + ".");
  }
  return out.join("\n\n") + "\n";
}
