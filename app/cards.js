// The chunk list: one card per chunk with its facts, its text (the repeated
// overlap marked) and a copy button. Cards are built in batches as the list
// scrolls into view, so thousands of chunks cost nothing until looked at.
// The list is one Tab stop (the current card, then its Copy button); the arrow
// keys, Page Up/Down, Home and End move between cards.

import { el, fmtInt, fmtPages } from "./dom.js";
import { reasonText } from "./catalog.js";
import { unitTitle } from "./words.js";
import { flagLabel } from "./flags.js";

const MOVES = { ArrowDown: 1, ArrowUp: -1, PageDown: 10, PageUp: -10 };

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
    list.addEventListener("keydown", (e) => this.onKey(e));
    list.addEventListener("focusin", (e) => {
      const card = e.target.closest(".card");
      if (card) this.setCurrent(Number(card.dataset.index));
    });
    this.encoding = "cl100k_base";
    this.onUnfilter = () => this.setFilter(null); // main.js also resets the filter control
    this.reset("");
  }

  // A new run over `text`; `chunks` is the run's list (chunks.js ChunkStore).
  // `encoding` (set before) names the unit of the sizes shown.
  reset(text, chunks = []) {
    this.text = text;
    this.current = 0; // the card that holds the list's Tab stop
    this.chunks = chunks;
    this.flag = null; // show only the chunks with this flag (flags.js), once the run is done
    this.order = null; // the chunk indices shown, in order (null: all of them)
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
  // Positions in the list <-> chunk indices (the list may be filtered).
  count() { return this.order ? this.order.length : this.chunks.length; }
  at(pos) { return this.order ? this.order[pos] : pos; }
  posOf(i) { return this.order ? this.order.indexOf(i) : i; }

  // Show only the chunks with `flag` (null: all), from the top of the list.
  setFilter(flag) {
    this.flag = flag;
    this.order = flag ? this.chunks.filter((c) => c.flags && c.flags.includes(flag)).map((c) => c.index) : null;
    this.shown = 0;
    this.current = this.count() ? this.at(0) : 0;
    this.list.replaceChildren();
    this.more();
  }

  more(upTo = 0) {
    if (!this.visible) return;
    const end = Math.min(this.count(), Math.max(upTo + 1, this.shown + BATCH));
    const frag = document.createDocumentFragment();
    for (let p = this.shown; p < end; p++) frag.append(this.card(this.chunks[this.at(p)]));
    this.list.append(frag);
    this.shown = end;
    // Still in view after this batch? The observer will not fire again by itself.
    if (this.shown < this.count()) {
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
    const fact = (label, value, id = label.toLowerCase()) => el("span", { class: "fact", "data-testid": `card-${id}` },
      el("span", { class: "fact-label" }, label), " ", value);
    const tabindex = c.index === this.current ? 0 : -1;
    return el("li", { class: `card tint-${c.index % 2}`, "data-testid": "card", "data-index": c.index, tabindex,
      "aria-labelledby": `card-title-${c.index}` },
      el("div", { class: "card-head" },
        el("h3", { id: `card-title-${c.index}` }, `Chunk ${fmtInt(c.index + 1)}`),
        fact(unitTitle(this.encoding), fmtInt(c.token_count), "tokens"),
        fact("Overlap", fmtInt(c.overlap_tokens)),
        fact("Ends", reasonText(c.boundary)),
        c.headings.length ? fact("Section", c.headings.join(" › ")) : null,
        c.pages ? fact(...fmtPages(c.pages), "pages") : null,
        c.parent_id != null ? fact("Parent", c.parent_id, "parent") : null,
        ...(c.flags || []).map((f) => el("span", { class: "flag", "data-testid": "card-flag", "data-flag": f }, flagLabel[f])),
        el("button", { type: "button", class: "small copy", "data-testid": "copy", "data-index": c.index, tabindex,
          "aria-label": `Copy chunk ${c.index + 1}` }, "Copy"),
      ),
      // With a context: what embed_text puts before the text, set apart (it is not in the document)
      c.context ? el("pre", { class: "card-context", "data-testid": "card-context", title: "Embedded before the chunk's text (embed_text)" },
        c.context.replace(/\n+$/, "")) : null,
      body,
    );
  }

  cardEl(i) {
    return this.list.querySelector(`.card[data-index="${i}"]`);
  }

  // Move the list's Tab stop to card i (roving tabindex).
  setCurrent(i) {
    if (i === this.current) return;
    for (const node of [this.cardEl(this.current), this.cardEl(this.current)?.querySelector(".copy")]) node?.setAttribute("tabindex", "-1");
    this.current = i;
    for (const node of [this.cardEl(i), this.cardEl(i)?.querySelector(".copy")]) node?.setAttribute("tabindex", "0");
  }

  // Show and focus card i (building the cards up to it first).
  focusCard(i) {
    if (!this.chunks.length) return;
    i = Math.max(0, Math.min(this.chunks.length - 1, i));
    if (this.posOf(i) < 0) this.onUnfilter(); // a chunk the filter hides: show them all again
    const pos = this.posOf(i);
    if (pos >= this.shown) this.more(pos);
    this.setCurrent(i);
    const card = this.cardEl(i);
    card.focus({ preventScroll: true });
    card.scrollIntoView({ block: "nearest" });
  }

  onKey(e) {
    if (!e.target.classList.contains("card")) return;
    const here = this.posOf(Number(e.target.dataset.index));
    let p;
    if (e.key in MOVES) p = here + MOVES[e.key];
    else if (e.key === "Home") p = 0;
    else if (e.key === "End") p = this.count() - 1;
    else return;
    e.preventDefault();
    this.focusCard(this.at(Math.max(0, Math.min(this.count() - 1, p))));
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
