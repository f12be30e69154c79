// Find in the document: every match of the typed text (case-insensitive, as
// typed, no patterns), highlighted with the CSS Custom Highlight API (no change
// to the document's DOM), Enter / the arrow buttons step through them and
// select the chunk that holds each.

const MAX_MATCHES = 10_000;
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export class Search {
  constructor({ input, prev, next, view, onMatch, onStatus }) {
    Object.assign(this, { input, view, onMatch, onStatus });
    this.matches = null; // [[start, end], ...] for the current query and text
    this.current = -1;
    let timer = 0;
    input.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(() => this.refresh(), 150);
    });
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter") { e.preventDefault(); this.step(e.shiftKey ? -1 : 1); }
      if (e.key === "Escape") { input.value = ""; this.refresh(); }
    });
    prev.addEventListener("click", () => this.step(-1));
    next.addEventListener("click", () => this.step(1));
  }

  // The text or its rendering changed: matches are found again when next needed.
  reset() {
    this.matches = null;
    this.current = -1;
    this.paint();
  }

  compute() {
    const q = this.input.value;
    this.matches = [];
    if (!q) return;
    const re = new RegExp(escape(q), "giu");
    for (let m; (m = re.exec(this.view.text)) && this.matches.length < MAX_MATCHES; ) {
      this.matches.push([m.index, m.index + m[0].length]);
    }
  }

  refresh() {
    this.compute();
    this.current = -1;
    this.paint();
    const n = this.matches.length;
    if (!this.input.value) this.onStatus("");
    else this.onStatus(n ? `${n === MAX_MATCHES ? "10,000+" : n.toLocaleString("en-US")} match${n === 1 ? "" : "es"}: press Enter for the next.` : "No match.");
  }

  step(dir) {
    if (!this.matches) this.compute();
    const n = this.matches.length;
    if (!n) { this.refresh(); return; }
    this.current = (this.current + dir + n) % n;
    const [start, end] = this.matches[this.current];
    this.paint();
    const chunk = this.view.chunkAtOffset(start);
    this.onMatch(chunk);
    const range = this.view.range(start, end);
    if (range) this.view.revealRange(range);
    this.onStatus(`Match ${(this.current + 1).toLocaleString("en-US")} of ${n.toLocaleString("en-US")}, in chunk ${(chunk + 1).toLocaleString("en-US")}.`);
  }

  // Highlight the matches that are rendered (the current one stands out).
  paint() {
    if (typeof CSS === "undefined" || !CSS.highlights) return;
    const all = new Highlight();
    const current = new Highlight();
    for (const [i, [start, end]] of (this.matches || []).entries()) {
      const range = this.view.range(start, end);
      if (range) (i === this.current ? current : all).add(range);
    }
    CSS.highlights.set("find", all);
    CSS.highlights.set("find-current", current);
  }
}
