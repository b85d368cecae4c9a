/**
 * An in-memory build: a Manifest for every data set (paths and media types from
 * build/core/datasets.ts) and the bytes of every variant, with real SHA-256 entity tags.
 */
import type { Manifest, ManifestEntry, ManifestVariant } from "../../../contract/manifest.js";
import { DATASETS } from "../../../build/core/datasets.js";
import { readConfig, type Config, type Vars } from "../../../contract/vars.js";
import { CounterKeys, type HmacCrypto } from "../../../worker/rate-limit/counter-key.js";
import type { Deps } from "../../../worker/deps.js";
import { handle } from "../../../worker/handler.js";
import { MaintenanceFlag } from "../../../worker/maintenance.js";
import { nearDeps } from "../../../worker/near/answer.js";
import { RateLimiter } from "../../../worker/rate-limit/limiter.js";
import { routeTable } from "../../../worker/routes.js";
import { throttledLog } from "../../../worker/runtime.js";
import { Background, ManualClock, MemoryAssets, MemoryKv } from "../../fakes/platform.js";

/** Origin of test requests (https, so nothing is redirected). */
export const ORIGIN = "https://opendata.example";
/** meta.LastUpdated of every fixture data set. */
const LAST_UPDATED = "2026-11-20T10:00:00Z";
/** The RATE_LIMIT_KEY secret of test isolates (made up for the tests). */
export const TEST_RATE_LIMIT_KEY = "test secret: not used by any deployment";
/** A moment well inside a rate-limit window: 10 s after a minute starts. */
export const START_MS = Date.parse("2026-11-21T12:00:10Z");

export interface Fixture {
  readonly manifest: Manifest;
  readonly files: ReadonlyMap<string, Uint8Array>;
}

async function variant(asset: string, bytes: Uint8Array): Promise<ManifestVariant> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const hex = [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
  return { asset, etag: `"${hex}"`, length: bytes.length };
}

/** Every data set, each with identity, br and gzip variants (the coded bytes are stand-ins). */
export async function makeFixture(): Promise<Fixture> {
  const files = new Map<string, Uint8Array>();
  const datasets: ManifestEntry[] = [];
  const encoder = new TextEncoder();
  const ms = Date.parse(LAST_UPDATED);
  for (const d of DATASETS) {
    const identity = encoder.encode(
      JSON.stringify({
        meta: { LastUpdated: LAST_UPDATED, TotalResults: 1 },
        data: [{ Brand: [{ BrandName: d.title }] }],
      }),
    );
    const bytes = {
      identity,
      br: encoder.encode(`br:${d.id}`),
      gzip: encoder.encode(`gzip bytes of ${d.id}`),
    };
    const assets = {
      identity: `${d.path}.json`,
      br: `${d.path}.json.br`,
      gzip: `${d.path}.json.gz`,
    };
    for (const coding of ["identity", "br", "gzip"] as const)
      files.set(assets[coding], bytes[coding]);
    datasets.push({
      dataset: d.id,
      path: d.path,
      mediaType: d.mediaType,
      lastUpdated: LAST_UPDATED,
      lastModified: new Date(ms).toUTCString(),
      lastModifiedMs: ms,
      totalResults: 1,
      brands: 1,
      aliases: [],
      variants: {
        identity: await variant(assets.identity, bytes.identity),
        br: await variant(assets.br, bytes.br),
        gzip: await variant(assets.gzip, bytes.gzip),
      },
    });
  }
  return { manifest: { formatVersion: 1, datasets, documents: [] }, files };
}

/** A Worker's dependencies over the fixture, with handles on every stand-in. */
export interface TestWorker {
  readonly deps: Deps;
  readonly clock: ManualClock;
  readonly kv: MemoryKv;
  readonly assets: MemoryAssets;
  readonly background: Background;
  readonly config: Config;
  /** Lines the throttled log wrote. */
  readonly logs: string[];
  /** Web Crypto calls made for counter keys, by method. */
  readonly crypto: { importKey: number; sign: number };
  /** Sends a request through the handler. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
}

/**
 * A fresh isolate: new counters, new flag cache, clock at START_MS. `sameKvAs` gives it the clock
 * and KV of another isolate, as two isolates of one location share them.
 */
export function makeWorker(
  fixture: Fixture,
  options: {
    vars?: Vars;
    startMs?: number;
    sameKvAs?: TestWorker;
    /** The RATE_LIMIT_KEY secret; TEST_RATE_LIMIT_KEY unless given (null: none set). */
    rateLimitKey?: string | null;
  } = {},
): TestWorker {
  const clock = options.sameKvAs?.clock ?? new ManualClock(options.startMs ?? START_MS);
  const kv = options.sameKvAs?.kv ?? new MemoryKv(clock);
  const assets = new MemoryAssets(fixture.files);
  const background = new Background();
  const logs: string[] = [];
  const log = throttledLog(clock, (line) => logs.push(line));
  const config = readConfig(options.vars ?? {}, () => {});
  const calls = { importKey: 0, sign: 0 };
  const countingCrypto: HmacCrypto = {
    importKey: (...args: Parameters<SubtleCrypto["importKey"]>) => {
      calls.importKey += 1;
      return crypto.subtle.importKey(...args);
    },
    sign: (...args: Parameters<SubtleCrypto["sign"]>) => {
      calls.sign += 1;
      return crypto.subtle.sign(...args);
    },
  };
  const secret =
    options.rateLimitKey === undefined ? TEST_RATE_LIMIT_KEY : (options.rateLimitKey ?? undefined);
  const deps: Deps = {
    routes: routeTable(fixture.manifest),
    assets,
    store: kv,
    config,
    clock,
    waitUntil: background.waitUntil,
    log,
    limiter: new RateLimiter(),
    counterKeys: new CounterKeys(secret, log, countingCrypto),
    maintenance: new MaintenanceFlag(),
    // The extension endpoints, where the manifest indexes a data set (as index.ts does).
    ...(fixture.manifest.near ? { near: nearDeps(fixture.manifest) } : {}),
  };
  return {
    deps,
    clock,
    kv,
    assets,
    background,
    logs,
    crypto: calls,
    config,
    fetch: (path, init) => handle(new Request(new URL(path, ORIGIN), init), deps),
  };
}
