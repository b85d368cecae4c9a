/**
 * Asking a deployment for every path the build lists (checks.ts) and comparing each answer with
 * the build (compare.ts), again and again for a bounded time while the edge takes up the new
 * version: a deploy reaches Cloudflare's locations over seconds, so a first answer from the old
 * version is not yet a failure. Paths that were the same are not asked again. The clock, the
 * sleep and fetch are passed in.
 */
import { createHash } from "node:crypto";
import type { PathCheck } from "./checks.js";
import { differences } from "./compare.js";

export type PathResult =
  | { readonly kind: "same"; readonly check: PathCheck }
  | { readonly kind: "different"; readonly check: PathCheck; readonly differences: string[] }
  | {
      readonly kind: "unreachable";
      readonly check: PathCheck;
      readonly cause: string;
      /** A 429's Retry-After, in ms: the next round waits at least this long. */
      readonly retryAfterMs?: number;
    };

export interface VerifyOptions {
  /** The deployment's origin. */
  readonly base: URL;
  readonly checks: readonly PathCheck[];
  readonly fetch: typeof fetch;
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  /** How long to keep asking the paths that are not yet the same. 0: one round. */
  readonly waitMs: number;
  /** The pause between rounds. */
  readonly intervalMs: number;
  /** How long one request may take. */
  readonly timeoutMs: number;
  /** Told after each round that left paths to ask again. */
  readonly progress: (line: string) => void;
}

/** Sent with every request, so an operator can tell the check's requests in the logs. */
const VERIFY_USER_AGENT = "opendata-edge-verify";

function causeOf(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && error.name === "TimeoutError") {
    return `no answer within ${timeoutMs / 1000} s`;
  }
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return (cause instanceof Error ? cause.message : String(cause)).replace(/\s+/g, " ").trim();
}

/** One GET of one path, compared with what the build made. */
export async function checkPath(
  check: PathCheck,
  options: Pick<VerifyOptions, "base" | "fetch" | "timeoutMs">,
): Promise<PathResult> {
  const url = new URL(check.path, options.base);
  try {
    const response = await options.fetch(url, {
      headers: {
        // The identity variant, whose strong ETag is the SHA-256 of its bytes.
        "Accept-Encoding": "identity",
        "User-Agent": VERIFY_USER_AGENT,
      },
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    const body = new Uint8Array(await response.arrayBuffer());
    if (response.status === 429) {
      const seconds = Number(response.headers.get("Retry-After"));
      return {
        kind: "unreachable",
        check,
        cause: "answered 429: this client is over its rate limit",
        ...(Number.isFinite(seconds) && seconds > 0 ? { retryAfterMs: seconds * 1000 } : {}),
      };
    }
    const found = differences(check.expected, {
      status: response.status,
      etag: response.headers.get("ETag"),
      lastModified: response.headers.get("Last-Modified"),
      date: response.headers.get("Date"),
      sha256: createHash("sha256").update(body).digest("hex"),
    });
    return found.length === 0
      ? { kind: "same", check }
      : { kind: "different", check, differences: found };
  } catch (error) {
    return { kind: "unreachable", check, cause: causeOf(error, options.timeoutMs) };
  }
}

/** Every check's last result, in the checks' order, after at most `waitMs` of retrying. */
export async function verifyDeployment(options: VerifyOptions): Promise<PathResult[]> {
  const deadline = options.now() + options.waitMs;
  const results = new Map<PathCheck, PathResult>();
  let pending = [...options.checks];
  for (;;) {
    // One at a time: a deployment's rate limit counts these requests like any client's.
    for (const check of pending) results.set(check, await checkPath(check, options));
    pending = pending.filter((check) => results.get(check)!.kind !== "same");
    if (pending.length === 0) break;
    const retryAfter = Math.max(
      0,
      ...pending.map((check) => {
        const result = results.get(check)!;
        return result.kind === "unreachable" ? (result.retryAfterMs ?? 0) : 0;
      }),
    );
    const left = deadline - options.now();
    // The last round runs at the deadline; a Retry-After beyond it leaves nothing to try.
    if (left <= 0 || retryAfter > left) break;
    const pause = Math.min(Math.max(options.intervalMs, retryAfter), left);
    options.progress(
      `verify: ${pending.length} of ${options.checks.length} paths not the same yet; asking again in ${seconds(pause)} (${seconds(left)} left)`,
    );
    await options.sleep(pause);
  }
  return options.checks.map((check) => results.get(check)!);
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
