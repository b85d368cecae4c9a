/**
 * Everything a request is answered from, as one type: the platform (clock, KV, log, waitUntil),
 * the ASSETS binding, the configuration and the isolate's state. index.ts builds it from env and
 * ctx; every module that needs it imports this type, and this module imports no module that does,
 * so no module imports itself back (test/project/import-cycles.test.ts).
 */
import type { Config } from "../contract/vars.js";
import type { ChangesRoute } from "./changes/select.js";
import type { Representation } from "./http/representation.js";
import type { MaintenanceFlag } from "./maintenance.js";
import type { NearRoute } from "./near/query.js";
import type { NearStore } from "./near/store.js";
import type { CounterKeys } from "./rate-limit/counter-key.js";
import type { RateLimiter } from "./rate-limit/limiter.js";
import type { AssetFetcher, Platform } from "./runtime.js";

export interface Deps extends Platform {
  /** The manifest's paths (data sets, aliases, documents) to their representations (routes.ts). */
  readonly routes: ReadonlyMap<string, Representation>;
  readonly assets: AssetFetcher;
  readonly config: Config;
  /** Isolate-lifetime state. */
  readonly limiter: RateLimiter;
  /** Makes the rate limiter's KV keys (keyed hashes of client buckets). */
  readonly counterKeys: CounterKeys;
  readonly maintenance: MaintenanceFlag;
  /** The extension endpoints' routes and their isolate-lifetime index store; none if absent. */
  readonly near?: NearDeps;
  /** The changes endpoints' paths to their routes (changes/select.ts); none if absent. */
  readonly changes?: ReadonlyMap<string, ChangesRoute>;
  /**
   * The site answering, by its Name, with site.yaml's Sites ("" for a host no site names); none
   * without. Its counters are its own (rate-limit/admission.ts) and metrics carry it.
   */
  readonly site?: string;
  /** Plain http served as it is, not redirected: the live preview's, at a site's host. */
  readonly plainHttp?: boolean;
}

/** What the extension endpoints need besides the rest (near/answer.ts makes it). */
export interface NearDeps {
  readonly routes: ReadonlyMap<string, NearRoute>;
  readonly store: NearStore;
}
