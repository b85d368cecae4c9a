/**
 * `npm start`: the live preview. Builds the content, serves it with the Worker in workerd over
 * loopback, and on every save under content/ rebuilds through the cache and publishes the new
 * generation to the Worker, which is bundled and started once per session: it reads each
 * generation through its PREVIEW binding (contract/preview.ts, generations.ts), so a save costs
 * a build, not a bundle and a reload, and every answer comes whole from one generation.
 *
 * Wrangler is told to send no metrics here; the rest of what keeps it offline it reads from the
 * process's environment, which is the caller's to set (scripts/dev.mjs sets what
 * scripts/wrangler.mjs does, docs/operations.md#offline-by-default): this module changes no
 * process-wide state.
 */
import { randomBytes } from "node:crypto";
import { request } from "node:http";
import { mkdir } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { CONTENT_DIR, DIST_DIR, PROJECT_ROOT } from "../core/paths.js";
import { coalesce, watchContent, watchHead, type Coalescer, type ContentWatcher } from "./watch.js";
import { PreviewSession, type PreviewBuildOptions, type Rebuilt } from "./session.js";
import type { HostVersion } from "./output.js";
import { PREVIEW_VERSION_PATH } from "../documents/landing/preview.js";
import { PREVIEW_BINDING } from "../../contract/preview.js";
import { startFrontLine, type FrontLine } from "./front-line.js";

export interface PreviewOptions extends PreviewBuildOptions {
  /** Folder holding wrangler.toml and the Worker's sources (the project, or a scratch copy). */
  readonly root?: string;
  /** Port on 127.0.0.1; 0 picks a free one. */
  readonly port: number;
  /** Where local KV is kept, or false for memory only. */
  readonly persist?: string | false;
  /** Quiet time after a save before rebuilding, in milliseconds. */
  readonly quietMs?: number;
  readonly log?: (line: string) => void;
  /** Called after each rebuild, once what it published is served. */
  readonly onRebuilt?: (rebuilt: Rebuilt) => void;
}

export interface RunningPreview {
  readonly url: URL;
  /** Settles when no rebuild is under way or waiting. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

// How long the Worker may take to serve a new version before the preview says so.
const SERVE_TIMEOUT_MS = 30_000;

/** Starts the preview: one build, the Worker, then the watcher. */
export async function startPreview(options: PreviewOptions): Promise<RunningPreview> {
  const root = options.root ?? PROJECT_ROOT;
  const log = options.log ?? ((line: string) => console.error(line));
  const session = new PreviewSession(
    { contentDir: CONTENT_DIR, outDir: DIST_DIR, ...options },
    log,
  );
  // Watching starts first, so a save made while the Worker starts is not missed: until the
  // rebuilds can start, a save is only noted.
  let saved = false;
  let onSave = (): void => {
    saved = true;
  };
  const contentDir = options.contentDir ?? CONTENT_DIR;
  const watcher: ContentWatcher = await watchContent(
    contentDir,
    () => onSave(),
    (error) => log(`preview: watching ${contentDir}: ${error.message}; saves may go unseen`),
  );
  // A commit is picked up like a save: the build dates the content by HEAD (LastUpdated), so a
  // commit with no save after it would otherwise leave the work tree served under the save's time.
  const headWatcher = await watchHead(
    contentDir,
    () => onSave(),
    (error) => log(`preview: watching git's HEAD: ${error.message}; commits may go unseen`),
  );
  let worker: PreviewWorker | undefined;
  let front: FrontLine | undefined;
  try {
    await session.rebuild();
    worker = await startWorker(root, session, options);
    // The address the preview is asked at: the local stack's front line, before the Worker
    // (front-line.ts: what it corrects in Miniflare's model of Cloudflare's).
    front = await startFrontLine(await worker.url, options.port);
  } catch (error) {
    // Nothing left running when the preview cannot start (a port in use, say).
    await watcher.close();
    await headWatcher?.close();
    await worker?.dispose();
    throw error;
  }
  const started = worker;
  const frontLine = front;
  const url = front.url;

  const rebuild = async () => {
    // A failed build is left unreported when a newer save already waits (session.ts).
    const rebuilt = await session.rebuild(() => runs.pending());
    // Served from the Worker's next request on; asked at each site's host, so what onRebuilt
    // reports is served. A newer save waiting ends the wait: its rebuild publishes anew, and
    // waiting for what it supersedes would only hold it back.
    if (rebuilt.published) await servedVersions(url, rebuilt.versions, () => runs.pending());
    options.onRebuilt?.(rebuilt);
  };
  const runs: Coalescer = coalesce(
    () =>
      rebuild().catch((error: unknown) =>
        log(`preview: after a rebuild: ${error instanceof Error ? error.message : String(error)}`),
      ),
    options.quietMs ?? 30,
  );
  onSave = () => runs.poke();
  if (saved) runs.poke();
  log(
    `Serving on ${url.origin}/ and rebuilding on every save under ${contentDir}${headWatcher ? " and every commit" : ""}`,
  );
  return {
    url,
    idle: () => runs.idle(),
    async close() {
      await watcher.close();
      await headWatcher?.close();
      await runs.close();
      await frontLine.close();
      await started.dispose();
      await session.written();
    },
  };
}

type PreviewWorker = Awaited<ReturnType<typeof import("wrangler").unstable_startWorker>>;

/** The preview's Worker, reading each generation from `session` through its PREVIEW binding. */
async function startWorker(
  root: string,
  session: PreviewSession,
  options: PreviewOptions,
): Promise<PreviewWorker> {
  // wrangler.toml names an assets folder, which must exist; the preview's Worker reads nothing
  // through ASSETS, so an empty one will do (and dist/ need not exist yet). One kept beside the
  // preview's local state, not a temporary one: Ctrl+C reaches wrangler's own handler first,
  // which exits at once, so a temporary folder would be left behind on every stop.
  const noAssets = join(root, ".wrangler", "preview-assets");
  await mkdir(noAssets, { recursive: true });
  const { unstable_startWorker } = loadWrangler();
  return unstable_startWorker({
    config: join(root, "wrangler.toml"),
    entrypoint: join(root, "worker", "preview.ts"),
    assets: noAssets,
    sendMetrics: false,
    bindings: {
      // The generations, from this process (worker/preview.ts).
      [PREVIEW_BINDING]: {
        type: "fetcher",
        fetcher: (request: Request) => Promise.resolve(session.generations.answer(request)),
      },
    },
    // One key for the session, so rate-limit counters carry over (a deployer's .dev.vars
    // still wins) and the Worker does not log that it made a key of its own.
    defaultBindings: {
      RATE_LIMIT_KEY: { type: "plain_text", value: randomBytes(32).toString("hex") },
    },
    dev: {
      inspector: false,
      persist: options.persist ?? false,
      // Bundled once: nothing the Worker serves is in its bundle.
      watch: false,
      logLevel: "warn",
      // Asked through the front line only (startPreview), at options.port.
      server: { hostname: "127.0.0.1", port: 0 },
    },
  });
}

/**
 * Waits until the Worker at `url` serves each of `versions` at its host (with Sites, each site's
 * version at the site's host: the default address is no site's), bounded by SERVE_TIMEOUT_MS; or
 * until `superseded()`, when a newer rebuild will publish anew.
 */
async function servedVersions(
  url: URL,
  versions: readonly HostVersion[],
  superseded: () => boolean,
): Promise<void> {
  const until = Date.now() + SERVE_TIMEOUT_MS;
  const waiting = [...versions];
  while (waiting.length > 0) {
    const { host, version } = waiting[0]!;
    if ((await versionAt(url, host).catch(() => undefined)) === version) {
      waiting.shift();
      continue;
    }
    if (superseded()) return;
    if (Date.now() >= until) {
      throw new Error(
        `the Worker at ${url.origin} did not serve version ${version}${host ? ` at host ${host}` : ""} within ${SERVE_TIMEOUT_MS} ms`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * The preview version the Worker at `url` serves at `host` (the URL's own when undefined). With
 * node:http, not fetch: fetch sends the URL's host whatever Host header it is given.
 */
function versionAt(url: URL, host: string | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(PREVIEW_VERSION_PATH, url),
      { headers: host ? { Host: host } : {}, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/**
 * wrangler, loaded with require: it is one CommonJS file of about 10 MB, and an ESM import of
 * CommonJS first runs Node's export lexer over the whole source (BENCHMARKS.md#tooling, row
 * "loading wrangler in a fresh process"). The tests' and the benchmarks'
 * Workers load it here too.
 */
export function loadWrangler(): typeof import("wrangler") {
  return createRequire(import.meta.url)("wrangler") as typeof import("wrangler");
}
