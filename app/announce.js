// What screen readers hear about a run: the result once, and progress only
// politely and rarely (a long run says it is still working every few seconds),
// never every slice. The visible status line is separate and updates freely.

const FIRST_PROGRESS_MS = 2000; // a run that ends sooner is announced by its result alone
const PROGRESS_EVERY_MS = 10_000;

export class Announcer {
  constructor(region) {
    this.region = region;
    this.timer = 0;
    this.latest = "";
    this.last = "";
  }

  say(text) {
    if (!text || text === this.last) return;
    this.last = text;
    this.region.textContent = text;
  }

  // A run's progress: remembered, and said after a while if the run is still going.
  progress(text) {
    this.latest = text;
    if (this.timer) return;
    this.timer = setTimeout(() => this.tick(), FIRST_PROGRESS_MS);
  }

  tick() {
    this.say(this.latest);
    this.timer = setTimeout(() => this.tick(), PROGRESS_EVERY_MS);
  }

  // Nothing to say yet (waiting for typing to stop).
  quiet() {
    clearTimeout(this.timer);
    this.timer = 0;
  }

  result(text) {
    this.quiet();
    this.say(text);
  }
}
