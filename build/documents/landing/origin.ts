/**
 * How the landing page's shell examples name the page's own origin
 * (docs/decisions.md#the-examples-name-the-pages-own-origin): site.yaml's PublicOrigin written out
 * when it is given; otherwise a shell variable, ORIGIN, with a first line that stops with a
 * message saying to set it, so a block pasted as it is runs nothing against a wrong host. Under
 * `npm start` the preview's script writes the page's real origin in (preview.ts, beside this).
 */
import { escapeHtml as text } from "./html.js";

/** Stands for the origin in an example's text, until the block is written as HTML. */
export const ORIGIN = "\u0000origin\u0000";

/** The shell variable the examples read the origin from when site.yaml gives none. */
export const ORIGIN_VARIABLE = "ORIGIN";

/** Classes the preview's script looks for: the origin as written, and the line about setting it. */
export const ORIGIN_CLASS = "origin";
export const ORIGIN_NOTE_CLASS = "origin-note";

/**
 * A shell example as a `<pre>` block: `lines` escaped, each ORIGIN in it written as `origin` (or
 * as `$ORIGIN`, after a line that insists it be set). Write the URLs in double quotes, so the
 * variable is expanded and `?` or `&` stay part of the URL.
 */
export function shellExample(lines: string, origin: string | undefined): string {
  const written = origin ?? `$${ORIGIN_VARIABLE}`;
  const body = text(lines)
    .split(ORIGIN)
    .join(`<span class="${ORIGIN_CLASS}">${text(written)}</span>`);
  // `${ORIGIN:?message}` (POSIX sh, bash, zsh) prints the message and runs nothing when the
  // variable is unset or empty; once set, the line does nothing. No quote in the message: bash
  // reads one inside "${…}" as opening a quoted string.
  const guard =
    origin === undefined && lines.includes(ORIGIN)
      ? `<span class="${ORIGIN_NOTE_CLASS}">: "\${${ORIGIN_VARIABLE}:?first set ${ORIGIN_VARIABLE} to the origin of this page, https:// and its host}"\n</span>`
      : "";
  return `<pre><code>${guard}${body}</code></pre>`;
}
