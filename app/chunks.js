// One store of the current run's chunks, feeding both views (the document view
// and the cards). Records have Chunk.to_dict()'s field names (without the text);
// start and end are UTF-16 offsets into `text`.

export class ChunkStore {
  constructor(views) {
    this.views = views; // each has reset(text, chunks), added(), finish()
    this.reset("");
  }

  // A new run over `text`: the views share this one array of chunks.
  reset(text) {
    this.text = text;
    this.chunks = [];
    this.done = false;
    for (const view of this.views) view.reset(text, this.chunks);
  }

  add(chunks) {
    for (const c of chunks) this.chunks.push(c);
    for (const view of this.views) view.added();
  }

  // Resolves when every view has rendered what it shows of the complete run.
  finish() {
    this.done = true;
    return Promise.all(this.views.map((view) => view.finish()));
  }
}
