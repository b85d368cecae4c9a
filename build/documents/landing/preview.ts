/**
 * What the landing page gains under `npm start` only (docs/decisions.md#the-live-preview-polls-a-version-document):
 * the content's problems and data-quality warnings, in a dock that stays in view, and a small
 * same-origin script that reloads the page when the preview's version changes (and writes the
 * page's origin into its examples). A deployed build never calls this:
 * its page has no script and its policy allows none.
 */
import {
  groupDiagnostics,
  sourcePlace,
  type Diagnostic,
  type MoreOfAKind,
} from "../../core/diagnostics.js";
import { thousands } from "../../core/format.js";
import { escapeAttribute as attr, escapeHtml as text } from "./html.js";
import { ORIGIN_CLASS, ORIGIN_NOTE_CLASS } from "./origin.js";

/** Where the preview serves its version: one line of text that changes with every rebuild. */
export const PREVIEW_VERSION_PATH = "/_preview/version";
/** Where the preview serves its script (same origin, so the policy can say 'self'). */
export const PREVIEW_SCRIPT_PATH = "/_preview/reload.js";
/** How often the page asks for the version, in milliseconds. */
const PREVIEW_POLL_MS = 300;

// The meta element the script reads the version the page was made with from.
const VERSION_META = "preview-version";

/**
 * The script: write the page's own origin into its examples (origin.ts, beside this), then ask for the
 * version every PREVIEW_POLL_MS; when it differs from the one the page was made with, reload. A
 * failed request (the server restarting) is simply asked again.
 */
export function previewScript(): string {
  return [
    "// Live preview (npm start only): reload when a rebuild is served.",
    `const made = document.querySelector('meta[name="${VERSION_META}"]').content;`,
    "// The examples name the origin this page is served from, so they paste as they are.",
    `for (const at of document.querySelectorAll(".${ORIGIN_CLASS}")) at.textContent = location.origin;`,
    `for (const line of document.querySelectorAll(".${ORIGIN_NOTE_CLASS}")) line.remove();`,
    "async function check() {",
    "  try {",
    `    const response = await fetch("${PREVIEW_VERSION_PATH}", { cache: "no-store" });`,
    "    if (response.ok && (await response.text()) !== made) return location.reload();",
    "  } catch {}",
    `  setTimeout(check, ${PREVIEW_POLL_MS});`,
    "}",
    `setTimeout(check, ${PREVIEW_POLL_MS});`,
    "",
  ].join("\n");
}

/** Up to this many warnings are listed open; more wait behind their one-line summary. */
const OPEN_WARNINGS = 3;

/**
 * The list items of `diagnostics`, each made by `item`, grouped as the terminal groups them
 * (core/diagnostics.ts, groupDiagnostics): the rest of a kind seen many times is one line inside
 * the item before it, so the list's numbers count what is listed. A page listing thousands of one
 * kind is read by nobody and costs every rebuild (set P's 3,667 warnings of two kinds, listed one
 * by one, made its page 0.9 MB larger).
 */
function groupedItems(
  diagnostics: readonly Diagnostic[],
  item: (d: Diagnostic) => string,
): string[] {
  const items: string[] = [];
  for (const told of groupDiagnostics(diagnostics)) {
    if ("diagnostic" in told) items.push(item(told.diagnostic));
    else items[items.length - 1] += moreLine(told);
  }
  return items.map((inner) => `<li>${inner}</li>`);
}

function moreLine(more: MoreOfAKind): string {
  return `<div class="more">… and ${thousands(more.more)} more like these (${thousands(more.total)} in all, rule <span class="rule">${text(more.rule)}</span> at <code class="pointer">${text(more.field)}</code> in ${text(more.where)}); <code>npm run validate -- --verbose</code> lists every one</div>`;
}

/**
 * The panel listing `problems`, each as file:line:column, its JSON pointer and message. It is
 * part of the dock (previewDock) that stays in view wherever the reader has scrolled. Its heading
 * says what is served meanwhile: the last good build, or, when nothing has built yet, nothing.
 */
export function problemsPanel(problems: readonly Diagnostic[], built = true): string {
  const items = groupedItems(
    problems,
    (d) =>
      `<code class="place">${text(sourcePlace(d))}</code> <code class="pointer">${text(d.pointer || "/")}</code> ${text(d.message)}`,
  );
  const count = problems.length === 1 ? "1 problem" : `${thousands(problems.length)} problems`;
  return [
    '<section class="problems" id="problems" role="alert" aria-labelledby="problems-title">',
    `<h2 id="problems-title">The content has ${count}: ${built ? "this page and the APIs still serve the last good build" : "nothing is published until a save builds"}</h2>`,
    `<ol>${items.join("\n")}</ol>`,
    "<p>Fix them and save: the page reloads itself when the next build is served.</p>",
    "</section>",
  ].join("\n");
}

/**
 * The data-quality warnings, lighter than the problems and folded away behind one line when
 * there are more than OPEN_WARNINGS: each with its file:line:column, message and rule.
 */
function warningsPanel(warnings: readonly Diagnostic[]): string {
  const items = groupedItems(
    warnings,
    (d) =>
      `<code class="place">${text(sourcePlace(d))}</code> ${text(d.message)} <span class="rule">${text(d.rule)}</span>`,
  );
  const count =
    warnings.length === 1
      ? "1 data-quality warning"
      : `${thousands(warnings.length)} data-quality warnings`;
  return [
    `<details class="warnings" id="warnings"${warnings.length <= OPEN_WARNINGS ? " open" : ""}>`,
    `<summary>${count}: worth a look, published all the same</summary>`,
    `<ol>${items.join("\n")}</ol>`,
    "</details>",
  ].join("\n");
}

/**
 * What the preview adds at the end of the page: the problems, then the warnings. It sticks to the
 * bottom of the viewport wherever the reader is (style.css, .preview-dock), so a save that breaks
 * the content shows its file:line:column even when the page reloads scrolled far down, and it
 * takes its own place after the footer, covering nothing, once the reader reaches the end. Being
 * last, it moves nothing above it: the reload keeps the reader's place.
 */
function previewDock(
  problems: readonly Diagnostic[],
  warnings: readonly Diagnostic[],
  built = true,
): string {
  if (problems.length === 0 && warnings.length === 0) return "";
  return [
    '<div class="preview-dock">',
    problems.length > 0 ? problemsPanel(problems, built) : "",
    warnings.length > 0 ? warningsPanel(warnings) : "",
    "</div>",
  ].join("\n");
}

/**
 * The landing page `html` with the preview's script, its version and, if any, the problems and
 * warnings: the head's additions just before the first `</head>`, the dock just before the first
 * `</body>`. Spliced into the bytes as they are: the page of a large publisher is megabytes (its
 * map), and decoding it to text, replacing and encoding it again was a large part of every
 * rebuild (bench/results/2026-11-27-typescript-7-and-the-previews-save.md, "Then the preview's page"). The inserts go in as written, whatever they hold: a problem's message
 * quoting `$'` from the content stays those two characters.
 */
export function previewPage(
  html: Uint8Array | string,
  preview: {
    readonly version: string;
    readonly problems: readonly Diagnostic[];
    readonly warnings?: readonly Diagnostic[];
    /** Whether a good build is served (false: nothing has built yet, the APIs answer 503). */
    readonly built?: boolean;
  },
): Buffer {
  const bytes =
    typeof html === "string"
      ? Buffer.from(html, "utf8")
      : Buffer.from(html.buffer, html.byteOffset, html.byteLength);
  const head = [
    `<meta name="${VERSION_META}" content="${attr(preview.version)}">`,
    `<script src="${PREVIEW_SCRIPT_PATH}" defer></script>`,
    "",
  ].join("\n");
  const dock = previewDock(preview.problems, preview.warnings ?? [], preview.built ?? true);
  const inserts = [
    { at: bytes.indexOf("</head>"), text: head },
    { at: dock === "" ? -1 : bytes.indexOf("</body>"), text: `${dock}\n` },
  ]
    .filter((insert) => insert.at >= 0)
    .sort((a, b) => a.at - b.at);
  const parts: Buffer[] = [];
  let from = 0;
  for (const insert of inserts) {
    parts.push(bytes.subarray(from, insert.at), Buffer.from(insert.text, "utf8"));
    from = insert.at;
  }
  parts.push(bytes.subarray(from));
  return Buffer.concat(parts);
}
