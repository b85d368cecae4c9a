/**
 * The API reference (/reference) as a reader reads it: each operation's heading, its three request
 * samples as they would be copied, and the answer it shows; and a check of a shown answer against
 * a real one. Read from the HTML with patterns, as page-examples.ts reads the landing page.
 */

/** Text of an HTML fragment as a browser shows it: no tags, the entities read. */
function textOf(html: string): string {
  return html
    .replace(/<[^>]*>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
}

export interface ShownOperation {
  /** The id of its heading. */
  readonly id: string;
  /** "GET" or "HEAD". */
  readonly method: string;
  /** The path as /openapi.json names it. */
  readonly path: string;
  /** Each sample's text, by its data-language: curl, javascript, python. */
  readonly samples: Readonly<Record<string, string>>;
  /** The answer shown: its status, Content-Type and body text (empty for HEAD). */
  readonly answer: { readonly status: number; readonly mediaType: string; readonly body: string };
}

/** Every operation the page shows, in its order. */
export function shownOperations(html: string): ShownOperation[] {
  return [...html.matchAll(/<article class="operation"[\s\S]*?<\/article>/g)].map(([article]) => {
    const heading =
      /<h3 id="([^"]+)"><span class="method">(\w+)<\/span> <code>([^<]+)<\/code>/.exec(article);
    if (!heading) throw new Error(`an operation with no heading: ${article.slice(0, 200)}`);
    const samples = Object.fromEntries(
      [
        ...article.matchAll(/<figure class="sample" data-language="(\w+)">([\s\S]*?)<\/figure>/g),
      ].map(([, language, figure]) => [
        language!,
        textOf(/<pre>([\s\S]*?)<\/pre>/.exec(figure!)?.[1] ?? ""),
      ]),
    );
    const shown = textOf(/<pre class="answer"[^>]*>([\s\S]*?)<\/pre>/.exec(article)?.[1] ?? "");
    const [head = "", ...rest] = shown.split("\n\n");
    const [statusLine = "", typeLine = ""] = head.split("\n");
    return {
      id: heading[1]!,
      method: heading[2]!,
      path: textOf(heading[3]!),
      samples,
      answer: {
        status: Number(statusLine.split(" ")[0]),
        mediaType: typeLine.replace(/^Content-Type: /, ""),
        body: heading[2] === "HEAD" ? "" : rest.join("\n\n"),
      },
    };
  });
}

/** What stands for the items of a list after the first, and ends a cut text. */
const MORE = "…";

/**
 * Where `shown` (a JSON value the page shows) is not true of `actual`: every field shown has the
 * same value in the answer, with the same names beside it; a list shows its first item, then
 * MORE when the answer's list has more; a text ending in MORE is the start of the answer's.
 * Empty when the shown answer is true.
 */
export function untrueOf(shown: unknown, actual: unknown, at = ""): string[] {
  if (typeof shown === "string" && shown.endsWith(MORE) && shown !== MORE) {
    return typeof actual === "string" && actual.startsWith(shown.slice(0, -1)) && actual !== shown
      ? []
      : [`${at}: ${JSON.stringify(actual)} does not start with ${JSON.stringify(shown)}`];
  }
  if (Array.isArray(shown)) {
    if (!Array.isArray(actual)) return [`${at}: not a list`];
    const cut = shown.at(-1) === MORE;
    const items = cut ? shown.slice(0, -1) : shown;
    const lengthOk = cut ? actual.length > items.length : actual.length === items.length;
    return [
      ...(lengthOk ? [] : [`${at}: ${actual.length} items, shown ${shown.length}`]),
      ...items.flatMap((item, i) => untrueOf(item, actual[i], `${at}/${i}`)),
    ];
  }
  if (shown !== null && typeof shown === "object") {
    if (actual === null || typeof actual !== "object" || Array.isArray(actual)) {
      return [`${at}: not an object`];
    }
    const [a, s] = [Object.keys(actual), Object.keys(shown)];
    return [
      ...(a.join() === s.join() ? [] : [`${at}: names ${a.join()} shown as ${s.join()}`]),
      ...Object.entries(shown).flatMap(([k, v]) =>
        untrueOf(v, (actual as Record<string, unknown>)[k], `${at}/${k}`),
      ),
    ];
  }
  return shown === actual
    ? []
    : [`${at}: ${JSON.stringify(actual)} shown as ${JSON.stringify(shown)}`];
}

/**
 * Where the text body `shown` (the first lines of a text answer, each cut with MORE, then MORE
 * when there are more lines) is not true of `actual`.
 */
export function untrueTextOf(shown: string, actual: string): string[] {
  const lines = shown.split("\n");
  const real = actual.split("\n");
  const cut = lines.at(-1) === MORE;
  const kept = cut ? lines.slice(0, -1) : lines;
  return [
    ...((cut ? real.length > kept.length : real.length === kept.length)
      ? []
      : [`${real.length} lines, shown ${lines.length}`]),
    ...kept.flatMap((line, i) =>
      (line.endsWith(MORE) ? real[i]!.startsWith(line.slice(0, -1)) : real[i] === line)
        ? []
        : [`line ${i + 1}: ${JSON.stringify(real[i])} shown as ${JSON.stringify(line)}`],
    ),
  ];
}
