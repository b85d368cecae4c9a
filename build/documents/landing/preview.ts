/**
 * What the landing page gains under `npm start` only (docs/decisions.md#the-live-preview-polls-a-version-document):
 * a panel listing the content's problems at the top of the page, and a small same-origin script
 * that reloads the page when the preview's version changes. A deployed build never calls this:
 * its page has no script and its policy allows none.
 */
import { sourcePlace, type Diagnostic } from "../../core/diagnostics.js";
import { escapeAttribute as attr, escapeHtml as text } from "./html.js";

/** Where the preview serves its version: one line of text that changes with every rebuild. */
export const PREVIEW_VERSION_PATH = "/_preview/version";
/** Where the preview serves its script (same origin, so the policy can say 'self'). */
export const PREVIEW_SCRIPT_PATH = "/_preview/reload.js";
/** How often the page asks for the version, in milliseconds. */
export const PREVIEW_POLL_MS = 300;

// The meta element the script reads the version the page was made with from.
const VERSION_META = "preview-version";

/**
 * The script: ask for the version every PREVIEW_POLL_MS; when it differs from the one the page
 * was made with, reload. A failed request (the server restarting) is simply asked again.
 */
export function previewScript(): string {
  return [
    "// Live preview (npm start only): reload when a rebuild is served.",
    `const made = document.querySelector('meta[name="${VERSION_META}"]').content;`,
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

/** The panel listing `problems`, each as file:line:column, its JSON pointer and message. */
export function problemsPanel(problems: readonly Diagnostic[]): string {
  const items = problems.map(
    (d) =>
      `<li><code>${text(sourcePlace(d))}</code> <code>${text(d.pointer || "/")}</code> ${text(d.message)}</li>`,
  );
  const count = problems.length === 1 ? "1 problem" : `${problems.length} problems`;
  return [
    '<section class="problems" id="problems" role="alert" aria-labelledby="problems-title">',
    `<h2 id="problems-title">The content has ${count}: this page and the APIs still serve the last good build</h2>`,
    "<p>Fix them and save: the page reloads itself when the next build is served.</p>",
    `<ol>${items.join("\n")}</ol>`,
    "</section>",
  ].join("\n");
}

/** The landing page `html` with the preview's script, its version and, if any, the problems. */
export function previewPage(
  html: string,
  preview: { readonly version: string; readonly problems: readonly Diagnostic[] },
): string {
  const head = [
    `<meta name="${VERSION_META}" content="${attr(preview.version)}">`,
    `<script src="${PREVIEW_SCRIPT_PATH}" defer></script>`,
  ].join("\n");
  const withHead = html.replace("</head>", `${head}\n</head>`);
  if (preview.problems.length === 0) return withHead;
  return withHead.replace("<body>", `<body>\n${problemsPanel(preview.problems)}`);
}
