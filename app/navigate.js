// Going to chunks: by number, the smallest and the largest, and stepping
// through a group (a histogram bar's chunks, every chunk that ends at a given
// cut reason) one click at a time.

// Index of the first chunk with the smallest (sign 1) or largest (sign -1) size.
export function extreme(chunks, sign) {
  let best = -1;
  chunks.forEach((c, i) => {
    if (best < 0 || sign * (c.token_count - chunks[best].token_count) < 0) best = i;
  });
  return best;
}

// Each click on the same group goes to its next chunk (wrapping around).
export class Stepper {
  constructor(goTo, say) {
    this.goTo = goTo;
    this.say = say;
    this.key = null;
    this.pos = -1;
  }

  reset() {
    this.key = null;
    this.pos = -1;
  }

  // key: what was clicked; indices: the group's chunks; label: "ending at a word cut".
  step(key, indices, label) {
    if (!indices.length) { this.say(`No chunk ${label}.`); return; }
    this.pos = key === this.key ? (this.pos + 1) % indices.length : 0;
    this.key = key;
    const i = indices[this.pos];
    this.goTo(i);
    this.say(`Chunk ${(i + 1).toLocaleString("en-US")}: ${this.pos + 1} of ${indices.length.toLocaleString("en-US")} ${label}. Click again for the next.`);
  }
}
