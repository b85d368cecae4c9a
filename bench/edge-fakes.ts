/**
 * In-memory stand-ins for the Worker's platform, for the in-process benchmarks. They mirror
 * test/worker/support/fakes.ts (a benchmark does not import tests) without its failure modes, and
 * record only counts, so long runs do not grow memory.
 */
import type { AssetFetcher, Clock, KvStore } from "./worker-modules.js";

/**
 * The ASSETS binding, serving files from memory. Files are Blobs: a Response made from a Blob
 * streams it when read, whereas one made from bytes copies them first, which for 600 KB would
 * cost more than the handler under test (the real binding streams too).
 */
export class MemoryAssets implements AssetFetcher {
  constructor(private readonly files: ReadonlyMap<string, Blob>) {}

  async fetch(request: Request): Promise<Response> {
    const file = this.files.get(new URL(request.url).pathname);
    if (!file) return new Response("Not Found", { status: 404 });
    return new Response(file, { headers: { "Content-Length": String(file.size) } });
  }
}

/** In-memory KV that counts its reads and writes, and keeps the time of each write per key. */
export class CountingKv implements KvStore {
  private readonly data = new Map<string, string>();
  readonly readsByKey = new Map<string, number>();
  readonly writeTimesByKey = new Map<string, number[]>();

  constructor(private readonly clock: Clock) {}

  async get(key: string): Promise<string | null> {
    this.readsByKey.set(key, (this.readsByKey.get(key) ?? 0) + 1);
    return this.data.get(key) ?? null;
  }

  async put(key: string, value: string): Promise<void> {
    const times = this.writeTimesByKey.get(key) ?? [];
    times.push(this.clock.now());
    this.writeTimesByKey.set(key, times);
    this.data.set(key, value);
  }
}

/** The platform's clock, as worker/runtime.ts has it. */
export const wallClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** One turn of the event loop: every queued promise continuation has run after it. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Simulated time for steady load: it moves only when told, and wakes sleepers (the limiter's wait
 * between syncs, the KV timeouts) in time order, letting each run before the next.
 */
export class SimulatedClock implements Clock {
  // Kept sorted by wake-up time.
  private sleepers: { at: number; wake: () => void }[] = [];

  constructor(private ms: number) {}

  now(): number {
    return this.ms;
  }

  sleep(ms: number): Promise<void> {
    return new Promise((wake) => {
      const at = this.ms + ms;
      let i = this.sleepers.length;
      while (i > 0 && this.sleepers[i - 1]!.at > at) i--;
      this.sleepers.splice(i, 0, { at, wake });
    });
  }

  /** Moves time forward to `ms`, waking each sleeper due by then at its own time. */
  async advanceTo(ms: number): Promise<void> {
    while (this.sleepers.length > 0 && this.sleepers[0]!.at <= ms) {
      const sleeper = this.sleepers.shift()!;
      this.ms = Math.max(this.ms, sleeper.at);
      sleeper.wake();
      await turn();
    }
    this.ms = Math.max(this.ms, ms);
  }
}
