/**
 * What both entries share (index.ts, deployed, and preview.ts, under `npm start` only): the
 * routes a manifest serves, and one request answered from them. The state that lives as long as
 * the isolate (counters, the flag, the log, the parsed vars) is made here, once, at module load;
 * what a manifest gives (routes, the near-me and changes maps) is the caller's to make once per
 * manifest: at module load for the deployed Worker, whose manifest is bundled, and once per
 * generation for the preview's.
 */
import type { Manifest } from "../contract/manifest.js";
import { readConfig, type Config } from "../contract/vars.js";
import { changesRoutes } from "./changes/select.js";
import type { Deps } from "./deps.js";
import { handle } from "./handler.js";
import { LOG_EVENTS, logLine } from "./log.js";
import { MaintenanceFlag } from "./maintenance.js";
import { recordRequest } from "./metrics/record.js";
import { nearDeps } from "./near/answer.js";
import { newOutcome } from "./outcome.js";
import { CounterKeys } from "./rate-limit/counter-key.js";
import { RateLimiter } from "./rate-limit/limiter.js";
import { routeTable } from "./routes.js";
import { systemClock, throttledLog, type AssetFetcher } from "./runtime.js";
import { requestHost } from "./sites.js";

/** What one manifest serves: its paths, and its near-me and changes endpoints. */
export type Served = Pick<Deps, "routes" | "near" | "changes" | "site">;

/** The routes of `manifest`; throws on a manifest the Worker cannot serve (routes.ts). */
function servedBy(manifest: Manifest, site?: string): Served {
  return {
    routes: routeTable(manifest),
    near: nearDeps(manifest),
    changes: changesRoutes(manifest),
    ...(site === undefined ? {} : { site }),
  };
}

/**
 * What a Worker serves: one publication at every host, or, with site.yaml's Sites, one per host
 * (docs/decisions.md#sites), each made once per isolate.
 */
export type Selection =
  | { readonly sites: undefined; readonly served: Served }
  | { readonly sites: ReadonlyMap<string, Served> };

/**
 * The selection a manifest makes: its own routes, or each site's by its host and by any further
 * names `alsoAt` gives it (the preview's <Name>.localhost).
 */
export function selectionOf(
  manifest: Manifest,
  alsoAt: (site: { name: string; host: string }) => readonly string[] = () => [],
): Selection {
  if (manifest.sites === undefined) return { sites: undefined, served: servedBy(manifest) };
  const sites = new Map<string, Served>();
  for (const site of manifest.sites) {
    const served = servedBy(site.manifest, site.name);
    for (const host of [site.host, ...alsoAt(site)]) sites.set(host, served);
  }
  return { sites };
}

// A host no site names: no path is served there, so every request gets the spec's 404 body
// (and plain http its redirect first), counted under no plan.
const NO_SITE: Served = { routes: new Map(), site: "" };

/**
 * What answers `request`: the one publication without Sites (no lookup at all), else the site of
 * its host, or nothing (404) for a host no site names (sites.ts).
 */
export function servedFor(selection: Selection, request: Request): Served {
  if (selection.sites === undefined) return selection.served;
  const host = requestHost(request.headers.get("Host"), request.url);
  return (host === undefined ? undefined : selection.sites.get(host)) ?? NO_SITE;
}

const limiter = new RateLimiter();
const maintenance = new MaintenanceFlag();
const log = throttledLog(systemClock);

// env is the same object for every request of an isolate; parse the vars once per object.
let configFor: { env: Env; config: Config } | undefined;
// The counter-key maker lives as long as its secret does: one key import per isolate, and
// without a secret one random key per isolate, however env objects come and go.
let keysFor: { secret: string | undefined; counterKeys: CounterKeys } | undefined;

const warnConfig = (cause: string) =>
  console.warn(logLine({ event: LOG_EVENTS.configInvalid, cause }));

/**
 * The answer to `request` from `served`, reading stored files through `assets`; then the
 * request's data point to the metrics binding when there is one (metrics/record.ts).
 */
export async function answerFrom(
  served: Served,
  assets: AssetFetcher,
  request: Request,
  env: Env,
  ctx: ExecutionContext,
  /** Plain http is served as it is, whatever the host (the live preview's, only). */
  plainHttp = false,
): Promise<Response> {
  if (configFor?.env !== env) configFor = { env, config: readConfig(env, warnConfig) };
  if (!keysFor || keysFor.secret !== env.RATE_LIMIT_KEY) {
    keysFor = {
      secret: env.RATE_LIMIT_KEY,
      counterKeys: new CounterKeys(env.RATE_LIMIT_KEY, log),
    };
  }
  // What was asked and how it was answered, complete once handle() has answered.
  const outcome = newOutcome();
  try {
    return await handle(
      request,
      {
        ...served,
        assets,
        store: env.KV,
        config: configFor.config,
        clock: systemClock,
        waitUntil: (promise) => ctx.waitUntil(promise),
        log,
        limiter,
        counterKeys: keysFor.counterKeys,
        maintenance,
        ...(plainHttp && { plainHttp }),
      },
      outcome,
    );
  } finally {
    // One data point per request, never awaited and never in the answer's way; nothing at all
    // where the binding is not declared (env types it as always there, a deployer may remove it:
    // docs/decisions.md#request-metrics-are-on-by-default).
    recordRequest(env.METRICS, outcome, request);
  }
}
