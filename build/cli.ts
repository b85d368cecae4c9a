/**
 * `npm run build` and `npm run validate`. Prints every problem as `file:line:column: pointer:
 * message` on stderr and exits 1 when there are any; on success `build` prints the summary table.
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { formatDiagnostic } from "./diagnostics.js";
import { runBuild } from "./pipeline.js";
import { summaryTable } from "./summary.js";

const USAGE = `usage: node .out/build/cli.js <build|validate> [--content DIR] [--out DIR]

  build     validate content/ and write dist/ (data, precompressed variants, manifest.json)
  validate  validate only; writes nothing`;

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      content: { type: "string" },
      out: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  const command = positionals[0];
  if (values.help || (command !== "build" && command !== "validate") || positionals.length > 1) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  const result = await runBuild({
    contentDir: values.content ? resolve(values.content) : undefined,
    outDir: values.out ? resolve(values.out) : undefined,
    write: command === "build",
  });
  if (!result.ok) {
    for (const d of result.diagnostics) console.error(formatDiagnostic(d));
    const files = new Set(result.diagnostics.map((d) => d.file)).size;
    const count = result.diagnostics.length;
    console.error(
      `\n${count} problem${count === 1 ? "" : "s"} in ${files} file${files === 1 ? "" : "s"}.` +
        (command === "build" ? " Nothing was published: dist/ is unchanged." : ""),
    );
    return 1;
  }
  if (command === "validate") {
    console.log(`${result.filesChecked} content files are valid.`);
  } else {
    console.log(summaryTable(result.datasets));
    console.log(`\n${result.filesChecked} content files checked; dist/ written.`);
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`build failed: ${error instanceof Error ? error.stack : String(error)}`);
    process.exit(2);
  },
);
