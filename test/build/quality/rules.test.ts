/**
 * The one list of data-quality rules (build/quality/rules.ts), held to what names its rules
 * elsewhere: docs/editing.md's table, word for word, and site.yaml's schema.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../../build/core/paths.js";
import { QUALITY_RULES, QUALITY_RULE_IDS } from "../../../build/quality/rules.js";
import { at, parseJson } from "../../helpers/json.js";

/** The rows of the rule table under "## Data quality" in a Markdown text: [id, text]. */
function ruleTable(markdown: string): [string, string][] {
  const section = markdown.slice(markdown.indexOf("\n## Data quality\n"));
  const rows = section.split("\n").filter((line) => /^\| `[a-z0-9-]+` +\|/.test(line));
  return rows.map((line) => {
    const [, id, text] = /^\| `([a-z0-9-]+)` +\| (.*?) *\|$/.exec(line)!;
    return [id!, text!];
  });
}

/** Where the table and the list disagree, one line per rule, naming it. */
function disagreements(
  rules: readonly { readonly id: string; readonly text: string }[],
  table: readonly [string, string][],
): string[] {
  const rows = new Map(table);
  const found: string[] = [];
  for (const { id, text } of rules) {
    const row = rows.get(id);
    if (row === undefined) found.push(`${id}: in the list, not in docs/editing.md's table`);
    else if (row !== text) found.push(`${id}: docs/editing.md reads "${row}", the rule "${text}"`);
  }
  for (const [id] of table) {
    if (!rules.some((rule) => rule.id === id)) found.push(`${id}: in the table, not in the list`);
  }
  const order = rules.map((rule) => rule.id).filter((id) => rows.has(id));
  const tableOrder = table.map(([id]) => id).filter((id) => order.includes(id));
  if (found.length === 0 && order.join() !== tableOrder.join()) {
    found.push(
      `the table lists the rules in another order than the list: ${tableOrder.join(", ")}`,
    );
  }
  return found;
}

describe("the list of data-quality rules", () => {
  it("gives every rule one id of its own and a scope the runners know", () => {
    expect(new Set(QUALITY_RULE_IDS).size).toBe(QUALITY_RULES.length);
    for (const rule of QUALITY_RULES) expect(["record", "file", "content"]).toContain(rule.scope);
  });

  it("is docs/editing.md's table, rule by rule and word for word", async () => {
    const editing = await readFile(join(PROJECT_ROOT, "docs", "editing.md"), "utf8");
    const table = ruleTable(editing);
    expect(table.length).toBeGreaterThan(0);
    expect(disagreements(QUALITY_RULES, table)).toEqual([]);
  });

  it("names the rule when the table and the list disagree", () => {
    const rules = [
      { id: "a-rule", text: "what it looks for" },
      { id: "b-rule", text: "another thing" },
    ];
    const markdown = (rows: string) =>
      `# Editing\n\n## Data quality\n\n| rule | what it looks for |\n| --- | --- |\n${rows}\n`;
    expect(
      ruleTable(markdown("| `a-rule` | what it looks for |\n| `b-rule` | another thing |")),
    ).toEqual([
      ["a-rule", "what it looks for"],
      ["b-rule", "another thing"],
    ]);
    expect(
      disagreements(
        rules,
        ruleTable(markdown("| `a-rule` | what it looks at |\n| `c-rule` | x |")),
      ),
    ).toEqual([
      'a-rule: docs/editing.md reads "what it looks at", the rule "what it looks for"',
      "b-rule: in the list, not in docs/editing.md's table",
      "c-rule: in the table, not in the list",
    ]);
    expect(
      disagreements(
        rules,
        ruleTable(markdown("| `b-rule` | another thing |\n| `a-rule` | what it looks for |")),
      ),
    ).toEqual(["the table lists the rules in another order than the list: b-rule, a-rule"]);
  });

  it("is site.yaml's QualityErrors, with all", async () => {
    const schema = parseJson(
      await readFile(join(PROJECT_ROOT, "schemas", "site.schema.json"), "utf8"),
    );
    const listed = at(schema, "/properties/QualityErrors/items/enum");
    expect(listed).toEqual([
      "all",
      "name-spelling",
      "brand-spelling",
      "country-code",
      "coordinates-zero",
      "coordinates-swapped",
      "coordinates-sign-flipped",
      "coordinates-outside-country",
      "coordinates-shared",
      "postcode-format",
      "identifier-placeholder",
      "atm-unknown-branch",
      "branch-atm-not-linked",
      "hours-closing-not-after-opening",
      "hours-overlap",
      "hours-day-twice",
      "atm-24-hours-note",
      "duplicate-location",
      "duplicate-product",
      "availability-ended",
    ]);
    expect(["all", ...QUALITY_RULE_IDS]).toEqual(listed);
  });
});
