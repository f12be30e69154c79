// axe-core accessibility checks in the browser tests. axe is a test-only npm
// devDependency (MPL-2.0): its script is evaluated in the page by the test
// driver (DevTools protocol, not a <script> tag, so the page's CSP is untouched)
// and is never part of the shipped page.

import { readFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./helpers.mjs";

const AXE_SOURCE = readFileSync(path.join(ROOT, "node_modules/axe-core/axe.min.js"), "utf8");

// Violations on the whole page (WCAG 2.x A/AA plus axe's best practices), as
// short strings: "rule-id: target (summary)".
export async function axeViolations(page) {
  const loaded = await page.evaluate(() => typeof window.axe === "object");
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"] },
      resultTypes: ["violations"],
    });
    return result.violations.map((v) => ({
      id: v.id,
      nodes: v.nodes.map((n) => `${n.target.join(" ")}: ${n.failureSummary.split("\n").slice(1, 2).join("").trim()}`),
    }));
  });
  return violations.map((v) => `${v.id} (${v.nodes.length}): ${v.nodes.slice(0, 3).join(" | ")}`);
}
