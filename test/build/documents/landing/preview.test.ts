import { describe, expect, it } from "vitest";
import {
  previewPage as previewBytes,
  previewScript,
  problemsPanel,
} from "../../../../build/documents/landing/preview.js";
import { DECIDED } from "../../../helpers/spec-values.js";
import { at, page, problem, warning } from "../../../helpers/preview-fixtures.js";

/** The preview's page as text. */
const previewPage = (...args: Parameters<typeof previewBytes>) =>
  previewBytes(...args).toString("utf8");

describe("the preview's landing page", () => {
  it("loads the preview's script and carries its version in the head", () => {
    const html = previewPage(page, { version: "abc", problems: [] });
    expect(html).toContain(`<script src="${DECIDED.preview.scriptPath}" defer></script>\n</head>`);
    expect(html).toContain('<meta name="preview-version" content="abc">');
    expect(html).not.toContain("problems");
  });

  it("puts the problems last in the body, after the page, each with its file, line, column and pointer, escaped", () => {
    const html = previewPage(page, { version: "abc", problems: [problem] });
    const body = html.slice(html.indexOf("<body>"));
    // Last, so the reload that shows it moves nothing the reader was looking at.
    expect(body.indexOf('class="problems"')).toBeGreaterThan(body.indexOf("</main>"));
    expect(body.indexOf('class="problems"')).toBeLessThan(body.indexOf("</body>"));
    expect(html).toContain("content/branches/a&amp;b.yaml:7:11</code>");
    expect(html).toContain("/Branch/0/Name</code>");
    expect(html).toContain('&lt;"12"&gt;');
  });

  it("inserts the head's additions before </head> and the dock before </body>, the rest byte for byte", () => {
    const withProblem = previewPage(page, { version: "abc", problems: [problem] });
    expect(withProblem.startsWith("<!doctype html>\n<html>\n<head>\n<title>t</title>\n")).toBe(
      true,
    );
    expect(withProblem).toContain(
      '<title>t</title>\n<meta name="preview-version" content="abc">\n<script src="/_preview/reload.js" defer></script>\n</head>\n<body>\n<main></main>\n<div class="preview-dock">',
    );
    expect(withProblem.endsWith("</section>\n\n</div>\n</body>\n</html>\n")).toBe(true);
    expect(previewPage(page, { version: "abc", problems: [] })).toBe(
      '<!doctype html>\n<html>\n<head>\n<title>t</title>\n<meta name="preview-version" content="abc">\n<script src="/_preview/reload.js" defer></script>\n</head>\n<body>\n<main></main>\n</body>\n</html>\n',
    );
  });

  it("takes the page as bytes or as text, and places the inserts by bytes when the text before them is not ASCII", () => {
    const accented = page.replace("<title>t</title>", "<title>Caf\u00e9 \u00a3 \u{1F3E6}</title>");
    const fromBytes = previewBytes(Buffer.from(accented, "utf8"), {
      version: "abc",
      problems: [{ ...problem, message: "na\u00efve \u00a3" }],
    });
    const fromText = previewBytes(accented, {
      version: "abc",
      problems: [{ ...problem, message: "na\u00efve \u00a3" }],
    });
    expect(fromBytes.equals(fromText)).toBe(true);
    const html = fromBytes.toString("utf8");
    expect(html).toContain(
      '<title>Caf\u00e9 \u00a3 \u{1F3E6}</title>\n<meta name="preview-version" content="abc">',
    );
    expect(html).toContain("na\u00efve \u00a3");
    expect(html).not.toContain("\uFFFD");
  });

  it("writes a problem that quotes $' or $& from the content as written, not as a replacement pattern", () => {
    const quoting = { ...problem, message: 'must be a number, not "$\'" or "$&"' };
    const html = previewPage(page, { version: "abc", problems: [quoting] });
    expect(html).toContain('must be a number, not "$\'" or "$&amp;"');
    expect(html.match(/<main><\/main>/g)).toHaveLength(1);
    expect(html.match(/<\/body>/g)).toHaveLength(1);
  });

  it("says the last good build is served meanwhile, or, when nothing has built, that nothing is", () => {
    expect(problemsPanel([problem])).toContain(
      "The content has 1 problem: this page and the APIs still serve the last good build</h2>",
    );
    expect(problemsPanel([problem], false)).toContain(
      "The content has 1 problem: nothing is published until a save builds</h2>",
    );
    const never = previewPage(page, { version: "abc", problems: [problem], built: false });
    expect(never).toContain("nothing is published until a save builds");
    expect(never).not.toContain("last good build");
  });

  it("counts the problems in the panel's heading", () => {
    expect(problemsPanel([problem])).toContain("1 problem:");
    expect(problemsPanel([problem, problem])).toContain("2 problems:");
  });

  it("lists the data-quality warnings, each with its file, line, column, message and rule, escaped", () => {
    const html = previewPage(page, { version: "abc", problems: [], warnings: [warning] });
    expect(html).not.toContain('class="problems"');
    const panel = html.slice(html.indexOf('<details class="warnings"'), html.indexOf("</details>"));
    expect(panel).toContain("<summary>1 data-quality warning");
    expect(panel).toContain("content/atms/a&amp;b.yaml:57:13</code>");
    expect(panel).toContain("look swapped &lt;here&gt;");
    expect(panel).toContain("coordinates-swapped");
  });

  it("shows a few warnings open and folds many behind their count", () => {
    const three = previewPage(page, { version: "abc", problems: [], warnings: [1, 2, 3].map(at) });
    expect(three).toMatch(/<details class="warnings" id="warnings" open>/);
    const four = previewPage(page, {
      version: "abc",
      problems: [],
      warnings: [1, 2, 3, 4].map(at),
    });
    expect(four).toMatch(/<details class="warnings" id="warnings">/);
    expect(four).toContain("<summary>4 data-quality warnings");
    for (const line of [1, 2, 3, 4]) expect(four).toContain(`content/atms/a&amp;b.yaml:${line}:13`);
  });

  it("tells a kind seen more than five times as its first three and one line counting the rest, as the terminal does", () => {
    const eight = [1, 2, 3, 4, 5, 6, 7, 8].map(at);
    const html = previewPage(page, { version: "abc", problems: [], warnings: eight });
    const panel = html.slice(html.indexOf('<details class="warnings"'), html.indexOf("</details>"));
    expect(panel).toContain("<summary>8 data-quality warnings");
    for (const line of [1, 2, 3]) expect(panel).toContain(`content/atms/a&amp;b.yaml:${line}:13`);
    for (const line of [4, 8]) expect(panel).not.toContain(`content/atms/a&amp;b.yaml:${line}:13`);
    expect(panel).toContain(
      '<div class="more">… and 5 more like these (8 in all, rule <span class="rule">coordinates-swapped</span> at <code class="pointer">/ATM/*/Location/PostalAddress/GeoLocation/GeographicCoordinates</code> in content/atms/a&amp;b.yaml); <code>npm run validate -- --verbose</code> lists every one</div></li>',
    );
    // Inside the third item, so the list numbers count what it lists: three.
    expect(panel.match(/<li/g)).toHaveLength(3);
    expect(panel).toMatch(
      /a&amp;b.yaml:3:13<\/code>[^<]*<span class="rule">coordinates-swapped<\/span><div class="more">/,
    );
  });

  it("counts the files a grouped kind of problem is in, and lists a handful of one kind in full", () => {
    const spread = [0, 1, 2, 3, 4, 5, 6].map((n) => ({
      ...problem,
      file: `content/branches/b${n % 2}.yaml`,
      pointer: `/Branch/${n}/Name`,
    }));
    const panel = problemsPanel(spread);
    expect(panel).toContain("The content has 7 problems");
    expect(panel).toContain(
      '… and 4 more like these (7 in all, rule <span class="rule">type</span> at <code class="pointer">/Branch/*/Name</code> in 2 files)',
    );
    expect(problemsPanel(spread.slice(0, 5)).match(/<li>/g)).toHaveLength(5);
    expect(problemsPanel(spread.slice(0, 5))).not.toContain('class="more"');
  });

  it("has a script that writes the page's own origin into the examples and drops the line about setting it", () => {
    const script = previewScript();
    expect(script).toContain('document.querySelectorAll(".origin")');
    expect(script).toContain("location.origin");
    expect(script).toContain('document.querySelectorAll(".origin-note")');
  });
});
