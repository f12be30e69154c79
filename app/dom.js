// Small DOM helpers. User text only ever becomes text nodes (never HTML).

export const $ = (id) => document.getElementById(id);

// el("span", {class: "x", dataset: {a: 1}}, "text", child) -> element
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value == null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child == null || child === false) continue;
    node.append(child); // strings become text nodes
  }
  return node;
}

export const svgEl = (tag, attrs = {}) => {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
};

const intFormat = new Intl.NumberFormat("en-US");
export const fmtInt = (n) => intFormat.format(n);
// A chunk's pages, [first, last] (1-based), as its label and value: ["Page", "3"] or ["Pages", "3–4"].
export const fmtPages = ([first, last]) => (first === last ? ["Page", fmtInt(first)] : ["Pages", `${fmtInt(first)}–${fmtInt(last)}`]);

export function fmtBytes(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

// Resolve on the next animation frame (or soon, in a hidden tab).
export const nextFrame = () =>
  new Promise((resolve) => {
    let done = false;
    const go = () => { if (!done) { done = true; resolve(); } };
    requestAnimationFrame(go);
    setTimeout(go, 50); // rAF does not fire in background tabs
  });
