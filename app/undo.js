// Undo for what replaces the whole text at once (Clear, a large paste, opening
// a file): a toast says what happened and offers Undo until the next change.
// Ctrl+Z (Cmd+Z) in the text box does the same while the toast is shown.

export class UndoToast {
  constructor({ box, text, button, textarea }) {
    Object.assign(this, { box, text, button });
    this.restore = null;
    button.addEventListener("click", () => this.undo());
    textarea.addEventListener("keydown", (e) => {
      if (this.restore && (e.ctrlKey || e.metaKey) && !e.shiftKey && e.key.toLowerCase() === "z") {
        e.preventDefault();
        this.undo();
      }
    });
  }

  // Say what happened; `restore` puts back what was there before.
  offer(message, restore) {
    this.restore = restore;
    this.text.textContent = message;
    this.box.hidden = false;
  }

  // Any other change: the offer no longer applies.
  dismiss() {
    this.restore = null;
    this.box.hidden = true;
  }

  undo() {
    const restore = this.restore;
    this.dismiss();
    if (restore) restore();
  }
}
