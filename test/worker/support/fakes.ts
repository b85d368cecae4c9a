/**
 * Stand-ins for the Worker's platform: a clock the test moves, an in-memory KV that counts its
 * calls and can fail, an ASSETS binding serving bytes from memory, and a waitUntil that keeps the
 * promises. KV simulators ignore fake timers, so the limiter is tested against these.
 */
import type { AssetFetcher } from "../../../worker/handler.js";
import type { Clock, KvStore } from "../../../worker/runtime.js";

/** A clock that moves only when the test says so; sleepers wake in time order. */
export class ManualClock implements Clock {
  private timers: { at: number; wake: () => void }[] = [];
  constructor(private ms: number) {}

  now(): number {
    return this.ms;
  }

  sleep(ms: number): Promise<void> {
    return new Promise((wake) => this.timers.push({ at: this.ms + ms, wake }));
  }

  /** Moves time forward by `ms`, waking each sleeper at its time and letting it run. */
  async advance(ms: number): Promise<void> {
    const end = this.ms + ms;
    await settle();
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers[0];
      if (!next || next.at > end) break;
      this.timers.shift();
      this.ms = Math.max(this.ms, next.at);
      next.wake();
      await settle();
    }
    this.ms = end;
    await settle();
  }

  /** Moves to an absolute time (forward only). */
  async advanceTo(ms: number): Promise<void> {
    await this.advance(Math.max(0, ms - this.ms));
  }
}

/** Lets every queued promise continuation run (one macrotask turn). */
export function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

export type KvFailure = "none" | "throw" | "hang";

/** In-memory KV that records its calls and the time of each write. */
export class MemoryKv implements KvStore {
  readonly data = new Map<string, string>();
  readonly reads: { key: string; cacheTtl?: number }[] = [];
  readonly writes: { key: string; value: string; at: number; expirationTtl: number }[] = [];
  failure: KvFailure = "none";

  constructor(private readonly clock: Clock) {}

  async get(key: string, options?: { cacheTtl?: number }): Promise<string | null> {
    this.reads.push({ key, ...options });
    await this.fail();
    return this.data.get(key) ?? null;
  }

  async put(key: string, value: string, options: { expirationTtl: number }): Promise<void> {
    await this.fail();
    this.writes.push({ key, value, at: this.clock.now(), ...options });
    this.data.set(key, value);
  }

  private fail(): Promise<void> {
    if (this.failure === "throw")
      return Promise.reject(new Error("KV PUT failed: 429 Too Many Requests"));
    if (this.failure === "hang") return new Promise(() => {});
    return Promise.resolve();
  }
}

export type AssetFailure = "none" | "throw" | "missing" | "wrong-length";

/** The ASSETS binding, serving files from memory and recording what it was asked. */
export class MemoryAssets implements AssetFetcher {
  readonly requests: Request[] = [];
  failure: AssetFailure = "none";

  constructor(readonly files: ReadonlyMap<string, Uint8Array>) {}

  async fetch(request: Request): Promise<Response> {
    this.requests.push(request);
    if (this.failure === "throw") throw new Error("assets binding unavailable");
    const path = new URL(request.url).pathname;
    const bytes = this.files.get(path);
    if (!bytes || this.failure === "missing") return new Response("Not Found", { status: 404 });
    const length = this.failure === "wrong-length" ? bytes.length + 1 : bytes.length;
    return new Response(bytes, { headers: { "Content-Length": String(length) } });
  }
}

/** ctx.waitUntil that keeps what it is given. */
export class Background {
  readonly promises: Promise<unknown>[] = [];
  readonly waitUntil = (promise: Promise<unknown>): void => {
    this.promises.push(promise);
  };
}
