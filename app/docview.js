// The document view: the whole text, each chunk's extent tinted (alternating),
// overlap regions highlighted, and a marker with the reason at every cut.
//
// The text is split into elementary segments at every chunk start and end; a
// segment covered by two chunks is overlap, by none a gap (whitespace the
// chunks leave out). Segments go into blocks of ~16K characters cut after a
// newline, each with `content-visibility: auto`, so the browser lays out only
// what is on screen and a 5 MB document is built a few blocks per frame.
//
// A PDF's pages: a thin rule with "page 3" where each page starts, its label
// generated content (as a cut's), so the view's text stays the document's text.
// The rules are hidden from assistive technology; the inspector names a chunk's pages.

import { reasonText } from "./catalog.js";
import { lastAtOrBefore } from "./bisect.js";
import { el, fmtInt, fmtPages, nextFrame } from "./dom.js";
import { count, unitTitle } from "./words.js";

const BLOCK_TARGET = 16_000; // UTF-16 units per block, cut after the next newline
const BLOCK_MAX = 64_000; // a block without newlines is cut here anyway
const FRAME_BUDGET_MS = 8; // DOM work per animation frame

// What to do to see a chunk's details, in the words of the device at hand.
const canHover = () => typeof matchMedia === "function" && matchMedia("(hover: hover)").matches;
export const inspectHint = () => (canHover()
  ? "Point at a chunk, or focus the document and use the arrow keys, to see its details."
  : "Tap a chunk to see its details.");

export class DocumentView {
  constructor(root, inspector) {
    this.root = root;
    this.inspector = inspector;
    this.content = null;
    this.generation = 0;
    this.active = -1; // chunk shown in the inspector (hover wins over keyboard)
    this.keyboard = -1; // chunk chosen with the arrow keys
    this.onKeyMove = null; // (i): the arrow keys chose chunk i (-1: none)
    root.addEventListener("mouseover", (e) => this.onPointer(e));
    root.addEventListener("mouseleave", () => this.activate(this.keyboard));
    root.addEventListener("click", (e) => this.onClick(e));
    root.addEventListener("keydown", (e) => this.onKey(e));
    this.encoding = "cl100k_base";
    this.reset("");
  }

  // A new run over `text` (old content stays on screen until the new one renders);
  // `chunks` is the run's list (chunks.js ChunkStore), filled as the run goes.
  // `encoding` (set before) names the unit of the sizes shown.
  reset(text, chunks = []) {
    this.generation++;
    this.text = text;
    this.chunks = chunks;
    this.parents = [];
    this.segsOf = []; // chunk index -> its segment elements
    this.segStart = []; // text offset where each rendered segment starts, in order
    this.segEl = []; // ... and the segment
    this.frontier = 0; // text before this offset has final coverage
    this.pos = 0; // rendered up to here
    this.lo = 0; // first chunk that ends after pos
    this.block = null;
    this.blockEnd = 0;
    this.pendingContent = el("div", { class: "doc-content" });
    this.starts = 0; // chunks whose start marker is placed
    this.cutsPlaced = new Set(); // chunks whose cut marker is placed (the records are shared: nothing is written on them)
    this.pageStarts = []; // UTF-16 offset where each page starts (page 1 first), for a PDF
    this.nextPage = 0; // the first page whose rule is not placed yet
    this.keepScroll = this.root.scrollTop;
    this.done = false;
    this.keyboard = -1;
    this.active = -1;
    this.showInspector(-1);
    this.scheduled = false;
    if (!text) this.swapIn(); // nothing to render: show the empty state now
  }

  // Where each page of the document starts (its UTF-16 offsets), before the run renders.
  setPages(starts) {
    this.pageStarts = starts || [];
    this.nextPage = 0;
  }

  // A message in place of the document (the engine is starting, a run has not
  // rendered anything yet). The next render replaces it.
  placeholder(message) {
    const p = el("p", { class: "doc-placeholder", "data-testid": "doc-placeholder" }, message);
    if (this.content) this.content.replaceWith(p); else this.root.append(p);
    this.content = p;
    this.root.classList.remove("empty");
    delete this.root.dataset.rendered;
  }

  // The store added chunks to the list.
  added() {
    // Coverage before the last known chunk's start can no longer change:
    // later chunks start at or after it.
    if (this.chunks.length) this.frontier = Math.max(this.frontier, this.chunks[this.chunks.length - 1].start);
    this.schedule();
  }

  finish() {
    this.done = true;
    this.frontier = this.text.length;
    this.schedule();
    return this.rendered();
  }

  // Resolves when everything known so far is in the DOM (used by tests via data-rendered).
  rendered() {
    return new Promise((resolve) => {
      const check = () => (this.pos >= this.frontier && !this.scheduled ? resolve() : setTimeout(check, 20));
      check();
    });
  }

  schedule() {
    if (this.scheduled) return;
    this.scheduled = true;
    const gen = this.generation;
    nextFrame().then(() => {
      if (gen !== this.generation) return;
      this.scheduled = false;
      this.renderSome();
      if (this.pos < this.frontier) this.schedule();
      else if (this.done) this.root.dataset.rendered = "true";
    });
  }

  swapIn() {
    if (!this.pendingContent) return;
    const fresh = this.pendingContent;
    this.pendingContent = null;
    if (this.content) this.content.replaceWith(fresh); else this.root.append(fresh);
    this.content = fresh;
    delete this.root.dataset.rendered;
    this.root.classList.toggle("empty", !this.text);
  }

  renderSome() {
    if (this.pendingContent) this.swapIn();
    const t0 = performance.now();
    const { text, chunks } = this;
    while (this.pos < this.frontier && performance.now() - t0 < FRAME_BUDGET_MS) {
      for (let n = 0; n < 200 && this.pos < this.frontier; n++) this.renderSegment(text, chunks);
    }
    // Restore the reader's place once the new content is tall enough.
    if (this.keepScroll && this.root.scrollHeight >= this.keepScroll + this.root.clientHeight) {
      this.root.scrollTop = this.keepScroll;
      this.keepScroll = 0;
    }
  }

  renderSegment(text, chunks) {
    const x = this.pos;
    if (!this.block || x >= this.blockEnd) this.openBlock(x);
    while (this.lo < chunks.length && chunks[this.lo].end <= x) this.lo++;
    // A cut marker where the previous chunk ends.
    const prev = this.lo - 1;
    if (prev >= 0 && chunks[prev].end === x && !this.cutsPlaced.has(prev)) {
      this.cutsPlaced.add(prev);
      this.block.append(this.cutMarker(chunks[prev]));
    }
    // A rule where the next page starts (pages without text start where the next one does).
    const pages = this.pageStarts;
    if (this.nextPage < pages.length && pages[this.nextPage] <= x) {
      const first = this.nextPage + 1;
      while (this.nextPage < pages.length && pages[this.nextPage] <= x) this.nextPage++;
      this.block.append(this.pageMark(first, this.nextPage));
    }
    // Chunks covering x form a contiguous run lo..hi (starts and ends never decrease).
    let hi = this.lo - 1;
    while (hi + 1 < chunks.length && chunks[hi + 1].start <= x) hi++;
    // A numbered marker where each chunk starts (extents readable without colour).
    while (this.starts <= hi) this.block.append(this.startMarker(chunks[this.starts++]));
    let next = Math.min(this.frontier, this.blockEnd);
    if (this.lo <= hi) next = Math.min(next, chunks[this.lo].end);
    if (hi + 1 < chunks.length) next = Math.min(next, chunks[hi + 1].start);
    if (this.nextPage < pages.length) next = Math.min(next, pages[this.nextPage]);
    if (next <= x) next = x + 1; // never stall (zero-width chunks)

    const seg = el("span", {}, text.slice(x, next));
    if (this.lo > hi) {
      seg.className = "seg gap";
    } else {
      const depth = hi - this.lo + 1; // how many chunks hold this text
      seg.className = `seg ${depth > 1 ? "overlap" : `tint-${this.lo % 2}`}`;
      if (depth > 2) seg.classList.add("deep");
      if (depth > 1) seg.dataset.depth = depth;
      seg.dataset.first = this.lo;
      seg.dataset.last = hi;
      for (let i = this.lo; i <= hi; i++) (this.segsOf[i] ||= []).push(seg);
    }
    this.block.append(seg);
    this.segStart.push(x);
    this.segEl.push(seg);
    this.pos = next;
    if (this.pos >= this.text.length && this.done) this.markLast();
  }

  markLast() {
    const i = this.chunks.length - 1, last = this.chunks[i];
    if (last && !this.cutsPlaced.has(i) && last.end === this.text.length) {
      this.cutsPlaced.add(i);
      this.block.append(this.cutMarker(last));
    }
  }

  // The label is generated content (CSS attr()), so the view's text stays the document's.
  cutMarker(chunk) {
    return el("span", {
      class: "cut",
      "data-testid": "cut",
      "data-reason": chunk.boundary,
      "data-chunk": chunk.index,
      "data-label": `${fmtInt(chunk.index + 1)} · ${count(chunk.token_count, this.encoding)} · ${chunk.boundary}`,
      title: `Chunk ${chunk.index + 1} ends here (${count(chunk.token_count, this.encoding)}): ${reasonText(chunk.boundary)}`,
    });
  }

  startMarker(chunk) {
    return el("span", {
      class: "start-mark", "data-testid": "start-mark", "data-chunk": chunk.index, "data-n": fmtInt(chunk.index + 1),
      title: `Chunk ${chunk.index + 1} starts here`,
    });
  }

  // "page 3", or "pages 4–5" where page 4 has no text of its own.
  pageMark(first, last) {
    const label = first === last ? `page ${fmtInt(first)}` : `pages ${fmtInt(first)}–${fmtInt(last)}`;
    return el("span", { class: "page-mark", "data-testid": "page-mark", "data-page": last, "data-label": label, "aria-hidden": "true" });
  }

  openBlock(x) {
    const text = this.text;
    let end = text.indexOf("\n", x + BLOCK_TARGET - 1);
    end = end < 0 || end + 1 - x > BLOCK_MAX ? Math.min(text.length, x + BLOCK_MAX) : end + 1;
    // Never separate the two halves of a surrogate pair.
    if (end < text.length && /[\uDC00-\uDFFF]/.test(text[end])) end++;
    this.blockEnd = end;
    this.block = el("div", { class: "doc-block" });
    // Rough height so the scrollbar is sensible before the block is laid out.
    const lines = Math.max(1, text.slice(x, end).split("\n").length + Math.floor((end - x) / 200));
    this.block.style.containIntrinsicSize = `auto ${lines * 22}px`;
    (this.pendingContent || this.content).append(this.block);
  }

  // --- interaction ---------------------------------------------------------

  chunkAt(target) {
    const seg = target.closest && target.closest(".seg");
    if (!seg || seg.dataset.last === undefined) return -1;
    return Number(seg.dataset.last); // in an overlap: the chunk that repeats it
  }

  onPointer(e) {
    const i = this.chunkAt(e.target);
    if (i >= 0) this.activate(i);
  }

  onClick(e) {
    const i = this.chunkAt(e.target);
    if (i >= 0) this.select(i, false); // what is under the pointer is already in view
  }

  onKey(e) {
    if (!this.chunks.length) return;
    const last = this.chunks.length - 1;
    const moves = { ArrowDown: 1, ArrowRight: 1, j: 1, ArrowUp: -1, ArrowLeft: -1, k: -1 };
    let i;
    if (e.key in moves) i = Math.max(0, Math.min(last, (this.keyboard < 0 ? -1 : this.keyboard) + moves[e.key]));
    else if (e.key === "Home") i = 0;
    else if (e.key === "End") i = last;
    else if (e.key === "Escape") { this.select(-1); this.onKeyMove?.(-1); return; }
    else return;
    e.preventDefault();
    this.select(i, true);
    this.onKeyMove?.(i); // the inspector is no live region: the page says where the keys went
  }

  select(i, scroll = true) {
    this.keyboard = i;
    this.activate(i);
    if (scroll) this.reveal(i);
  }

  // A DOM Range over text offsets [start, end) of the rendered document (null if not rendered yet).
  range(start, end) {
    const a = this.domPoint(start), b = this.domPoint(end);
    if (!a || !b) return null;
    const r = document.createRange();
    r.setStart(a.node, a.offset);
    r.setEnd(b.node, b.offset);
    return r;
  }

  // The text node and offset in it of text offset x.
  domPoint(x) {
    const starts = this.segStart;
    if (!starts.length || x > this.pos) return null;
    // the last segment starting at or before x (the first, when none does)
    const i = Math.max(0, lastAtOrBefore(starts.length, (k) => starts[k], x));
    const node = this.segEl[i].firstChild;
    return { node, offset: Math.min(x - starts[i], node.length) };
  }

  // The chunk holding text offset x (the later one in an overlap), or -1.
  chunkAtOffset(x) {
    const chunks = this.chunks;
    const found = lastAtOrBefore(chunks.length, (i) => chunks[i].start, x); // the last chunk starting at or before x
    if (found >= 0 && chunks[found].end > x) return found;
    return Math.min(found + 1, chunks.length - 1); // whitespace between chunks: the next one
  }

  // Scroll the view so a range is in sight (with a line of context above).
  revealRange(range) {
    const box = range.getClientRects()[0] || range.getBoundingClientRect();
    this.scrollToBox(box);
  }

  scrollToBox(box) {
    const view = this.root.getBoundingClientRect();
    const line = parseFloat(getComputedStyle(this.root).lineHeight) || 22;
    if (box.top < view.top + line || box.top > view.bottom - 2 * line) {
      this.root.scrollTop += box.top - view.top - 1.5 * line;
    }
  }

  // Scroll the view (never the page: the inspector above it must stay in sight)
  // so the chunk's start is visible, with a line of context above it.
  reveal(i) {
    const segs = this.segsOf[i];
    if (!segs || !segs.length) return;
    this.scrollToBox(segs[0].getClientRects()[0] || segs[0].getBoundingClientRect());
  }

  activate(i) {
    if (i === this.active) return;
    for (const s of this.segsOf[this.active] || []) s.classList.remove("active");
    this.active = i;
    for (const s of this.segsOf[i] || []) s.classList.add("active");
    this.root.dataset.active = i;
    this.showInspector(i);
  }

  showInspector(i) {
    const c = this.chunks[i];
    const box = this.inspector;
    if (!c) {
      box.replaceChildren(el("span", { class: "inspector-hint" }, inspectHint()));
      return;
    }
    const fact = (label, value, id) => el("span", { class: "fact", "data-testid": id }, el("span", { class: "fact-label" }, label), " ", value);
    box.replaceChildren(...[
      fact("Chunk", `${fmtInt(c.index + 1)} of ${fmtInt(this.chunks.length)}${this.done ? "" : "+"}`, "inspect-index"),
      fact(unitTitle(this.encoding), fmtInt(c.token_count), "inspect-tokens"),
      fact("Overlap", count(c.overlap_tokens, this.encoding), "inspect-overlap"),
      fact("Ends", reasonText(c.boundary), "inspect-boundary"),
      fact("Section", c.headings.length ? c.headings.join(" › ") : "—", "inspect-headings"),
      c.pages ? fact(...fmtPages(c.pages), "inspect-pages") : null,
      ...this.contextFacts(c, fact),
    ].filter(Boolean));
  }

  // With a context: what embed_text adds before the text. With parents: the one it lies in.
  contextFacts(c, fact) {
    const facts = [];
    if (c.context != null) {
      const added = c.embed_tokens - c.token_count;
      facts.push(fact("Context", c.context ? `${count(added, this.encoding)}: ${c.context.trim().replace(/\n+/g, " ⏎ ")}` : "none (nothing above it)", "inspect-context"));
    }
    const parent = c.parent_id != null && this.parents.find((p) => p.id === c.parent_id);
    if (parent) facts.push(fact("Parent", `${parent.id} · ${count(parent.token_count, this.encoding)}`, "inspect-parent"));
    return facts;
  }

  setParents(parents) {
    this.parents = parents || [];
    if (this.active != null && this.active >= 0) this.showInspector(this.active);
  }
}
