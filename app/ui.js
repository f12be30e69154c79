// The page's elements, looked up once, and the texts and limits more than one panel uses.

import { $ } from "./dom.js";

// Above this many UTF-16 units the text is kept out of the visible textarea:
// Chrome needs ~0.7 s to lay out 5 MB there and over a second per keystroke.
export const LARGE_TEXT = 1_000_000;
export const EMPTY_TEXT = "No document yet: paste text into the box above, or open a file.";

export const ui = {
  engineStatus: $("engine-status"), engineText: $("engine-status-text"), bootProgress: $("boot-progress"),
  bootError: $("boot-error"), bootErrorMessage: $("boot-error-message"), staticHint: $("static-hint"),
  textarea: $("source-text"), largeNote: $("large-note"), largeSize: $("large-size"), editLarge: $("edit-large"),
  fileInput: $("file-input"), openFile: $("open-file"), clear: $("clear-text"),
  dropzone: $("dropzone"), dropOverlay: $("drop-overlay"), sourceInfo: $("source-info"), inputNotice: $("input-notice"),
  strategy: $("strategy"), strategyHelp: $("strategy-help"), encodingHelp: $("encoding-help"), language: $("language"), languageNote: $("language-note"), sizePreset: $("size-preset"), maxTokens: $("max-tokens"),
  overlap: $("overlap"), overlapAuto: $("overlap-auto"), overlapHelp: $("overlap-help"),
  overlapUnit: $("overlap-unit"), overlapUnitHelp: $("overlap-unit-help"), context: $("context"), contextHelp: $("context-help"),
  parents: $("parents"), parentsError: $("parents-error"), parentsHelp: $("parents-help"), encoding: $("encoding"), tokenizerFile: $("tokenizer-file"),
  runStatus: $("run-status"), runText: $("run-status-text"), runProgress: $("run-progress"), cancelRun: $("cancel-run"),
  warnings: $("warnings"), runError: $("run-error"),
  tabDocument: $("tab-document"), tabCards: $("tab-cards"), documentPane: $("document-pane"), cardsPane: $("cards-pane"),
  maxTokensError: $("max-tokens-error"), overlapError: $("overlap-error"), announce: $("run-announce"),
  stats: $("stats"), histogram: $("histogram"), histogramCaption: $("histogram-caption"), reasons: $("boundary-counts"),
  downloads: [$("download-jsonl"), $("download-json"), $("download-langchain"), $("download-vectors"), $("download-text")], headers: $("text-headers"),
  version: $("engine-version"),
  encodingRow: $("file-encoding-row"), fileEncoding: $("file-encoding"), suggestedEncoding: $("file-encoding-suggested"),
  copyCli: $("copy-cli"), copyPython: $("copy-python"), copied: $("copied"),
};


// Compare's form and results.
export const cmp = {
  form: $("compare-form"), strategy: $("cmp-strategy"), size: $("cmp-size"), overlap: $("cmp-overlap"),
  encoding: $("cmp-encoding"), status: $("cmp-status"), table: $("cmp-stats-fold"), tableSummary: $("cmp-stats-summary"), rows: $("cmp-rows"),
  headA: $("cmp-head-a"), headB: $("cmp-head-b"), view: $("cmp-view"), legend: $("cmp-legend"),
  modes: [$("cmp-mode-merged"), $("cmp-mode-sides")], sides: $("cmp-sides"),
  sideA: $("cmp-side-a"), sideB: $("cmp-side-b"), sideHeadA: $("cmp-side-a-head"), sideHeadB: $("cmp-side-b-head"),
};

export const statsParts = { dl: ui.stats, hist: ui.histogram, caption: ui.histogramCaption, reasons: ui.reasons };
