/**
 * The maintenance switch: on when the MAINTENANCE var says so (needs a deploy), or when the KV
 * flag says so (no deploy). The flag is read with an edge cacheTtl and remembered by the isolate
 * for MAINTENANCE_REFRESH_MS, so it costs one KV read per isolate per refresh, not one per request.
 */
import { isSwitchedOn } from "../contract/vars.js";
import { LOG_EVENTS } from "./log.js";
import { withTimeout, type Platform } from "./runtime.js";

/** KV key of the maintenance flag (same namespace as the counters). */
const MAINTENANCE_KEY = "maintenance";

/** Edge cache time of the flag read; KV's minimum is 30 s. */
const MAINTENANCE_CACHE_TTL_SECONDS = 60;

/** How long an isolate reuses the flag value it read before it reads it again. */
const MAINTENANCE_REFRESH_MS = 30_000;

/** The KV flag as one isolate knows it; create one per isolate. */
export class MaintenanceFlag {
  private on = false;
  private known = false;
  private readAt = -Infinity;
  private reading: Promise<void> | undefined;

  /**
   * Whether the KV flag is on. Only an isolate's first requests wait for KV (at most the KV
   * timeout); after that a stale value is answered while a fresh one is read in the background.
   */
  async isOn(ctx: Platform): Promise<boolean> {
    if (ctx.clock.now() - this.readAt >= MAINTENANCE_REFRESH_MS) {
      this.reading ??= this.read(ctx);
      if (this.known) ctx.waitUntil(this.reading);
      else await this.reading;
    }
    return this.on;
  }

  private async read(ctx: Platform): Promise<void> {
    try {
      const value = await withTimeout(
        ctx.store.get(MAINTENANCE_KEY, { cacheTtl: MAINTENANCE_CACHE_TTL_SECONDS }),
        ctx.clock,
      );
      this.on = isSwitchedOn(value);
    } catch (error) {
      // Fail open: keep serving with the last value known (off if none was ever read).
      ctx.log({ event: LOG_EVENTS.maintenanceFlagNotRead }, error);
    } finally {
      this.known = true;
      this.readAt = ctx.clock.now();
      this.reading = undefined;
    }
  }
}
