/** Runs `npm run import` in-process over a fixture, capturing what it prints. */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { runImport } from "../../build/cli/import-run.js";

/** The clock every test import reads: 2026-11-22T09:30:00Z. */
export const IMPORTED_AT = new Date("2026-11-22T09:30:00.123Z");

export interface ImportRun {
  readonly code: number;
  readonly stdout: string[];
  readonly stderr: string[];
}

export async function importFeeds(
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): Promise<ImportRun> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runImport(["--content", "content", ...args], {
    cwd,
    now: () => IMPORTED_AT,
    stdout: (line) => stdout.push(line),
    stderr: (line) => stderr.push(line),
    env,
    cacheDir: false,
  });
  return { code, stdout, stderr };
}

/** A schema-valid ATM record, with a town when one is given. */
export function atm(id: string, town?: string, extra: Record<string, unknown> = {}) {
  return {
    Identification: id,
    SupportedCurrencies: ["GBP"],
    Location: { PostalAddress: town === undefined ? { Country: "GB" } : { TownName: town } },
    ...extra,
  };
}

/** A response envelope as publishers serve it, one data item holding the brands. */
export function envelopeOf(brands: readonly Record<string, unknown>[]) {
  return {
    meta: { LastUpdated: "2026-11-01T00:00:00Z", TotalResults: brands.length },
    data: [{ Brand: brands }],
  };
}

/** Writes `value` (JSON, or text as it is) to `name` in the folder `root`; returns the name. */
export async function writeFeed(root: string, name: string, value: unknown): Promise<string> {
  await writeFile(join(root, name), typeof value === "string" ? value : JSON.stringify(value));
  return name;
}
