// The chunk list: one card per chunk with its facts, its text (the repeated
// overlap marked) and a copy button. Cards are built in batches as the list
// scrolls into view, so thousands of chunks cost nothing until looked at.

import { el, fmtInt } from "./dom.js";
import { reasonText } from "./catalog.js";

const BATCH = 40;

export class CardList {
  constructor(list, sentinel, onCopied) {
    this.list = list;
    this.sentinel = sentinel;
    this.onCopied = onCopied;
    this.visible = false;
    this.observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) this.more();
    }, { rootMargin: "600px" });
    this.observer.observe(sentinel);
    list.addEventListener("click", (e) => this.onClick(e));
    this.reset("");
  }

  // A new run over `text`; `chunks` is the run's list (chunks.js ChunkStore).
  reset(text, chunks = []) {
    this.text = text;
    this.chunks = chunks;
    this.shown = 0;
    this.done = false;
    this.list.replaceChildren();
  }

  // The store added chunks to the list.
  added() {
    if (this.visible && this.shown < BATCH) this.more();
  }

  finish() {
    this.done = true;
    if (this.visible) this.more();
  }

  show(visible) {
    this.visible = visible;
    if (visible) this.more();
  }

  // Append the next batch while the end of the list is near the viewport.
  more() {
    if (!this.visible) return;
    const end = Math.min(this.chunks.length, this.shown + BATCH);
    const frag = document.createDocumentFragment();
    for (let i = this.shown; i < end; i++) frag.append(this.card(this.chunks[i]));
    this.list.append(frag);
    this.shown = end;
    // Still in view after this batch? The observer will not fire again by itself.
    if (this.shown < this.chunks.length) {
      requestAnimationFrame(() => {
        const r = this.sentinel.getBoundingClientRect();
        if (r.top < innerHeight + 600) this.more();
      });
    }
  }

  chunkText(c) {
    return this.text.slice(c.start, c.end);
  }

  card(c) {
    const prev = this.chunks[c.index - 1];
    const text = this.chunkText(c);
    // The leading overlap: [this.start, previous.end).
    const overlapLen = prev && c.overlap_tokens > 0 ? Math.max(0, Math.min(prev.end, c.end) - c.start) : 0;
    const body = el("pre", { class: "card-text", "data-testid": "card-text" });
    if (overlapLen) body.append(el("mark", { class: "overlap", title: "Repeated from the previous chunk" }, text.slice(0, overlapLen)));
    body.append(text.slice(overlapLen));
    const fact = (label, value) => el("span", { class: "fact", "data-testid": `card-${label.toLowerCase()}` },
      el("span", { class: "fact-label" }, label), " ", value);
    return el("li", { class: `card tint-${c.index % 2}`, "data-testid": "card", "data-index": c.index },
      el("div", { class: "card-head" },
        el("h3", {}, `Chunk ${fmtInt(c.index + 1)}`),
        fact("Tokens", fmtInt(c.token_count)),
        fact("Overlap", fmtInt(c.overlap_tokens)),
        fact("Ends", reasonText(c.boundary)),
        c.headings.length ? fact("Section", c.headings.join(" › ")) : null,
        el("button", { type: "button", class: "small copy", "data-testid": "copy", "data-index": c.index,
          "aria-label": `Copy chunk ${c.index + 1}` }, "Copy"),
      ),
      body,
    );
  }

  async onClick(e) {
    const button = e.target.closest("button.copy");
    if (!button) return;
    const c = this.chunks[Number(button.dataset.index)];
    try {
      await navigator.clipboard.writeText(this.chunkText(c));
      button.textContent = "Copied";
      this.onCopied(`Chunk ${c.index + 1} copied to the clipboard.`);
    } catch {
      button.textContent = "Copy failed";
      this.onCopied("The browser refused clipboard access; select the text and copy it instead.");
    }
    setTimeout(() => { button.textContent = "Copy"; }, 1500);
  }
}
