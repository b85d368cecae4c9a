/**
 * Stand-ins for the Worker's platform, one set for the Worker's tests (inside workerd) and the
 * in-process benchmarks (in Node): a clock the caller moves, an in-memory KV that records its
 * calls and can fail, an ASSETS binding serving files from memory, and a waitUntil that keeps the
 * promises. KV simulators ignore fake timers, so the limiter is tested against these. Only Web
 * APIs are used, so the same code runs in both runtimes.
 */
import type { AssetFetcher, Clock, KvStore } from "../../worker/runtime.js";

/** A clock that moves only when the test says so; sleepers wake in time order. */
export class ManualClock implements Clock {
  private timers: { at: number; wake: () => void }[] = [];
  constructor(private ms: number) {}

  now(): number {
    return this.ms;
  }

  sleep(ms: number): Promise<void> {
    // Kept sorted by wake-up time (a stable insertion: equal times wake in the order they slept).
    return new Promise((wake) => {
      const at = this.ms + ms;
      let i = this.timers.length;
      while (i > 0 && this.timers[i - 1]!.at > at) i--;
      this.timers.splice(i, 0, { at, wake });
    });
  }

  /** Moves time forward by `ms`, waking each sleeper at its time and letting it run. */
  async advance(ms: number): Promise<void> {
    const end = this.ms + ms;
    await settle();
    while (this.timers.length > 0 && this.timers[0]!.at <= end) {
      const next = this.timers.shift()!;
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

/**
 * Lets every queued promise continuation run (one macrotask turn): setImmediate in Node, which
 * has no 1 ms floor (long simulated runs take thousands of turns), setTimeout(0) in workerd.
 */
export function settle(): Promise<void> {
  const immediate = (globalThis as { setImmediate?: (run: () => void) => unknown }).setImmediate;
  return new Promise((resolve) => (immediate ? immediate(resolve) : setTimeout(resolve, 0)));
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

/**
 * The ASSETS binding, serving files from memory and recording what it was asked (unless told not
 * to, for long benchmark runs). Files may be Blobs: a Response made from a Blob streams it when
 * read, as the real binding does, where one made from bytes copies them first.
 */
export class MemoryAssets implements AssetFetcher {
  readonly requests: Request[] = [];
  failure: AssetFailure = "none";

  constructor(
    readonly files: ReadonlyMap<string, Uint8Array | Blob>,
    private readonly record = true,
  ) {}

  fetch(request: Request): Promise<Response> {
    if (this.record) this.requests.push(request);
    // A failing binding rejects, as the platform's does: it does not throw.
    if (this.failure === "throw") return Promise.reject(new Error("assets binding unavailable"));
    const path = new URL(request.url).pathname;
    const file = this.files.get(path);
    if (!file || this.failure === "missing") {
      return Promise.resolve(new Response("Not Found", { status: 404 }));
    }
    const size = file instanceof Blob ? file.size : file.length;
    const length = this.failure === "wrong-length" ? size + 1 : size;
    return Promise.resolve(new Response(file, { headers: { "Content-Length": String(length) } }));
  }
}

/** ctx.waitUntil that keeps what it is given. */
export class Background {
  readonly promises: Promise<unknown>[] = [];
  readonly waitUntil = (promise: Promise<unknown>): void => {
    this.promises.push(promise);
  };
}
