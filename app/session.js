// The text across a reload of this tab: kept in sessionStorage, which is never sent
// anywhere and is gone with the tab (the settings are in localStorage and the address;
// the text never is). Written when the page goes away, not on every keystroke.

const KEY = "chunkwise.text.v1";
// Characters. Chromium's sessionStorage holds 10 MB of UTF-16 per origin (5 M characters):
// a larger text could not be kept, and one near the limit would crowd out everything else.
export const KEEP_MAX = 4_000_000;

export const tooLargeToKeep = (text) => text.length > KEEP_MAX;

// What the page shows as one document (several files are not kept: each is a file the user opened).
export function keep({ text, name }) {
  try {
    if (!text || tooLargeToKeep(text)) sessionStorage.removeItem(KEY);
    else sessionStorage.setItem(KEY, JSON.stringify({ text, name: name || null }));
  } catch {
    /* storage full or disabled: the text is just not kept */
  }
}

export function forget() {
  try { sessionStorage.removeItem(KEY); } catch { /* disabled */ }
}

// {text, name} kept before a reload of this tab, or null.
export function kept() {
  try {
    const v = JSON.parse(sessionStorage.getItem(KEY) || "null");
    return v && typeof v.text === "string" && v.text ? v : null;
  } catch {
    return null;
  }
}
