/**
 * Saves in a row, each asked for at every host that should serve it: the live preview's promise
 * that no save is lost, with site.yaml's Sites as without (issue 51, item 2). Used by the bench
 * (bench/preview-bench.ts, timings) and by the end-to-end test (test/e2e/preview-sites.test.ts,
 * which asserts every save was served and nothing about how fast).
 *
 * A save writes a marker, `<tag> edit <n>`, into the first StreetName of a brand's file; a host has
 * served save n once an answer it gives carries that file's marker with n or a later save's number
 * (saves close together may be built as one: the later one's content is then what is served).
 */
import { readFile, writeFile } from "node:fs/promises";
import { request } from "node:http";

/** The sample's site.yaml with a site per brand and the group's, as docs/editing.md sets them up. */
export const SAMPLE_SITES_YAML = [
  'License: "https://www.openbanking.org.uk/open-licence"',
  'TermsOfUse: "https://www.openbanking.org.uk/terms"',
  "Sites:",
  "  - Name: thistlecombe",
  "    Host: api.thistlecombe.example",
  "    Brands: [Thistlecombe Bank]",
  "  - Name: pennyfold",
  "    Host: api.pennyfold.example",
  "    Brands: [Pennyfold Building Society]",
  "  - Name: group",
  "    Host: opendata.thistlecombe-group.example",
  "",
].join("\n");

/** One save of a file, and when each host asked for it first served it. */
export interface SaveServed {
  readonly save: number;
  /** Milliseconds from the write to the first answer carrying it, by host; undefined: never. */
  readonly servedMs: ReadonlyMap<string, number | undefined>;
}

export interface SaveRun {
  /** Where the preview listens. */
  readonly base: URL;
  /** What each save writes to, and the hosts (Host headers) that publish that file's brand. */
  readonly files: readonly SavedFile[];
  /** The data path asked for, at each host. */
  readonly path: string;
  readonly saves: number;
  /** From one write to the next. */
  readonly apartMs: number;
  /** How long a host may take to serve a save before it counts as never served. */
  readonly timeoutMs: number;
}

interface SavedFile {
  readonly file: string;
  /** Distinguishes this file's marker from another's in a body holding both brands. */
  readonly tag: string;
  readonly hosts: readonly string[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Writes save `n`'s marker into the first StreetName of `file` (the previous marker replaced). */
async function writeSave(file: string, tag: string, n: number): Promise<void> {
  const text = await readFile(file, "utf8");
  const street = /^(\s+StreetName: )(.*)$/m;
  const found = street.exec(text);
  if (!found) throw new Error(`${file}: no StreetName to mark a save in`);
  const value = found[2]!.replace(/^"(.*)"$/, "$1").replace(/ \S+ edit \d+$/, "");
  await writeFile(file, text.replace(street, `$1"${value} ${tag} edit ${n}"`));
}

/** The latest save of `tag` that `body` carries, or -1. */
function latestSave(body: string, tag: string): number {
  let latest = -1;
  for (const m of body.matchAll(new RegExp(` ${tag} edit (\\d+)"`, "g"))) {
    latest = Math.max(latest, Number(m[1]));
  }
  return latest;
}

/**
 * Makes `run.saves` saves, `run.apartMs` apart, going round `run.files`; after each, asks each of
 * its hosts (conditionally, so an unchanged answer costs a 304) until one answer carries it or
 * `run.timeoutMs` has passed. Each client address is fresh, so the rate limit never answers.
 */
export async function driveSaves(run: SaveRun): Promise<SaveServed[]> {
  let client = 0;
  // node:http, not fetch: fetch sends the URL's host whatever Host header it is given.
  const ask = (host: string, etag: string | undefined) =>
    new Promise<{ etag: string | undefined; body: string | undefined }>((resolve, reject) => {
      const headers: Record<string, string> = {
        Host: host,
        "Accept-Encoding": "identity",
        "CF-Connecting-IP": `198.19.${(client >> 8) & 255}.${client++ & 255}`,
      };
      if (etag) headers["If-None-Match"] = etag;
      const req = request(new URL(run.path, run.base), { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () =>
          resolve({
            etag: res.headers.etag,
            body: res.statusCode === 200 ? Buffer.concat(chunks).toString("utf8") : undefined,
          }),
        );
      });
      req.on("error", reject);
      req.end();
    });
  const watch = async (host: string, tag: string, n: number, written: number) => {
    let etag: string | undefined;
    while (performance.now() - written < run.timeoutMs) {
      const answer = await ask(host, etag).catch(() => undefined);
      if (answer?.body !== undefined) {
        if (latestSave(answer.body, tag) >= n) return performance.now() - written;
        etag = answer.etag;
      }
      await sleep(10);
    }
    return undefined;
  };
  const results: Promise<SaveServed>[] = [];
  let next = performance.now();
  for (let n = 0; n < run.saves; n++) {
    const { file, tag, hosts } = run.files[n % run.files.length]!;
    await sleep(Math.max(0, next - performance.now()));
    await writeSave(file, tag, n);
    const written = performance.now();
    next = written + run.apartMs;
    results.push(
      Promise.all(
        hosts.map(async (host) => [host, await watch(host, tag, n, written)] as const),
      ).then((served) => ({ save: n, servedMs: new Map(served) })),
    );
  }
  return Promise.all(results);
}
