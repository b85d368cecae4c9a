/**
 * `npm run migrate`: rewrites product content written to the shapes 2.2.1 corrected (a one-item
 * card Scheme list, a residency list, SME loans' RepaymentType "Other") in place, keeping comments
 * and layout. Exits 0 when the content is migrated or needed nothing, 1 when something cannot be
 * rewritten without losing a value (each at file:line:column, with what to write; nothing is
 * written then), 2 on a usage error.
 */
import { resolve } from "node:path";
import { parseCommandLine } from "./args.js";
import { CONTENT_DIR } from "../core/paths.js";
import { formatDiagnostic } from "../core/diagnostics.js";
import { plural } from "../core/format.js";
import { migrateContent } from "../migrate/run.js";
import { exitAfterOutput } from "./exit.js";

const USAGE = `usage: npm run migrate -- [--content DIR] [--dry-run]

  Rewrites product content from the shapes older content used to the ones Open Data API 2.2.1
  defines, in place, keeping comments and layout: a card's one-item Scheme list becomes its one
  value, a one-item ResidencyEligibility list its one set of fields, an SME loan repayment's
  RepaymentType "Other" beside OtherRepaymentType is left out. What 2.2.1 cannot say (a Scheme
  list of two values) is reported at its line and nothing is written.
  --dry-run  say what would change, write nothing`;

async function main(argv: string[]): Promise<number> {
  const parsed = parseCommandLine(
    argv,
    {
      content: { type: "string" },
      "dry-run": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
    USAGE,
  );
  if (!parsed) return 2;
  const { positionals, values } = parsed;
  if (values.help || positionals.length > 0) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  const dryRun = values["dry-run"] === true;
  const result = await migrateContent({
    contentDir: values.content ? resolve(values.content) : CONTENT_DIR,
    cwd: process.cwd(),
    dryRun,
  });
  for (const change of result.changes) console.log(formatDiagnostic(change));
  if (result.refusals.length > 0) {
    for (const refusal of result.refusals) console.error(formatDiagnostic(refusal));
    console.error(
      `migrate: ${plural(result.refusals.length, "problem")} to fix by hand first; no file was written`,
    );
    return 1;
  }
  const files = plural(result.files.length, "file");
  console.log(
    result.files.length === 0
      ? "migrate: the content already has the 2.2.1 shapes; nothing to do"
      : dryRun
        ? `migrate: would rewrite ${files}; nothing was written (--dry-run)`
        : `migrate: rewrote ${files}; run npm run validate to check them`,
  );
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => exitAfterOutput(code),
  (error: unknown) => {
    console.error(`migrate failed: ${error instanceof Error ? error.stack : String(error)}`);
    exitAfterOutput(1);
  },
);
