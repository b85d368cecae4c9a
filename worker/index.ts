/**
 * The Worker's entry: builds the request's dependencies from env and ctx and hands over to the
 * handler, then writes the request's data point to the metrics binding when there is one
 * (metrics/record.ts). What lives as long as the isolate (routes, counters, the flag, the log) is
 * made here, once, at module load.
 */
import type { Manifest } from "../contract/manifest.js";
import manifest from "../dist/manifest.json" with { type: "json" };
import { readConfig, type Config } from "../contract/vars.js";
import { changesRoutes } from "./changes/select.js";
import { handle } from "./handler.js";
import { LOG_EVENTS, logLine } from "./log.js";
import { MaintenanceFlag } from "./maintenance.js";
import { recordRequest } from "./metrics/record.js";
import { nearDeps } from "./near/answer.js";
import { newOutcome } from "./outcome.js";
import { CounterKeys } from "./rate-limit/counter-key.js";
import { RateLimiter } from "./rate-limit/limiter.js";
import { routeTable } from "./routes.js";
import { systemClock, throttledLog } from "./runtime.js";

const routes = routeTable(manifest as Manifest);
const near = nearDeps(manifest as Manifest);
const changes = changesRoutes(manifest as Manifest);
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

export default {
  async fetch(request, env, ctx): Promise<Response> {
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
          routes,
          assets: env.ASSETS,
          store: env.KV,
          config: configFor.config,
          clock: systemClock,
          waitUntil: (promise) => ctx.waitUntil(promise),
          log,
          limiter,
          counterKeys: keysFor.counterKeys,
          maintenance,
          near,
          changes,
        },
        outcome,
      );
    } finally {
      // One data point per request, never awaited and never in the answer's way; nothing at all
      // where the binding is not declared (env types it as always there, a deployer may remove it:
      // docs/decisions.md#request-metrics-are-on-by-default).
      recordRequest(env.METRICS, outcome, request);
    }
  },
} satisfies ExportedHandler<Env>;
