/**
 * Counter keys that carry no client address. A client's bucket (its IPv4 address or IPv6 /64,
 * client-bucket.ts) is personal data and must not be stored, so the KV key of a counter names it by a
 * keyed hash: HMAC-SHA-256 (RFC 2104, FIPS 198-1) with the deployment's secret, truncated to
 * COUNTER_KEY_HASH_BYTES (RFC 2104 section 5 allows keeping the leftmost bytes). A plain hash
 * would not do: the whole IPv4 space is 2^32 guesses, so anyone reading KV could reverse it; with
 * a secret key they cannot. The hashed text includes the plan and the window, so one client's
 * keys differ from minute to minute and cannot be linked across windows either.
 *
 * The hash is computed only when a counter is first shared to KV (limiter.ts), never per
 * request, and the key is imported once per isolate.
 */
import { type PlanId } from "../../contract/rate-limits.js";
import { LOG_EVENTS } from "../log.js";
import type { Log } from "../runtime.js";

/** Prefix of counter keys in KV: `rl:<plan>:<window>:<client hash>` (counter-key.ts). */
const COUNTER_KEY_PREFIX = "rl:";

/** The Worker secret holding the HMAC key of counter keys (`wrangler secret put RATE_LIMIT_KEY`). */
const RATE_LIMIT_KEY_SECRET = "RATE_LIMIT_KEY";

/**
 * Bytes of HMAC-SHA-256 kept in a counter key: 16 (128 bits, 32 hex digits). Two clients whose
 * keys collide share one quota for one window, so what matters is the chance of any collision
 * among the n buckets counted in one window of one plan: about n^2 / 2^(bits + 1) (the birthday
 * bound). At internet scale, every IPv4 address and as many IPv6 /64s in one minute, n = 2^33:
 * 128 bits give 2^66 / 2^129 = 2^-63 per window, and over a century of minutes (about 2^26)
 * 2^-37. 64 bits would give 2^66 / 2^65: a collision almost surely. 96 bits would do (2^-31 per
 * window); 128 cost nothing more, since KV keys may be 512 bytes.
 */
const COUNTER_KEY_HASH_BYTES = 16;

/** Bytes of the random key an isolate makes for itself when RATE_LIMIT_KEY is not set. */
const FALLBACK_KEY_BYTES = 32;

/** The part of Web Crypto used here; tests pass a wrapper that counts the calls. */
export type HmacCrypto = Pick<SubtleCrypto, "importKey" | "sign">;

/** Imports `secret` (its UTF-8 bytes) as an HMAC-SHA-256 signing key. */
export function importHmacKey(
  secret: Uint8Array,
  subtle: HmacCrypto = crypto.subtle,
): Promise<CryptoKey> {
  return subtle.importKey("raw", secret, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

/** The first `bytes` bytes of HMAC-SHA-256(key, message), as lowercase hex. */
export async function truncatedHmac(
  key: CryptoKey,
  message: string,
  bytes: number,
  subtle: HmacCrypto = crypto.subtle,
): Promise<string> {
  const mac = new Uint8Array(await subtle.sign("HMAC", key, new TextEncoder().encode(message)));
  let hex = "";
  for (const b of mac.subarray(0, bytes)) hex += b.toString(16).padStart(2, "0");
  return hex;
}

/** Makes counter keys for one isolate; create one per isolate (per secret) and keep it. */
export class CounterKeys {
  private key: Promise<CryptoKey> | undefined;
  private readonly secret: Uint8Array;

  /**
   * `secret` is the RATE_LIMIT_KEY secret. Without one (a local run, or a deployment where it was
   * never set) the isolate makes a random key of its own and says so once. Not a fixed default:
   * a key written in public code would let anyone reading KV try all 2^32 IPv4 addresses and
   * reverse every key. A random key keeps addresses unreadable; the cost is that isolates no
   * longer find each other's counters, so each limits alone (docs/decisions.md#no-client-address-at-rest).
   */
  constructor(
    secret: string | undefined,
    log: Log,
    private readonly subtle: HmacCrypto = crypto.subtle,
  ) {
    if (secret) {
      this.secret = new TextEncoder().encode(secret);
    } else {
      this.secret = crypto.getRandomValues(new Uint8Array(FALLBACK_KEY_BYTES));
      log({
        event: LOG_EVENTS.rateLimitKeyMissing,
        cause: `${RATE_LIMIT_KEY_SECRET} is not set; rate-limit counters use a random key of this isolate and are not shared with other isolates (set it with: wrangler secret put ${RATE_LIMIT_KEY_SECRET})`,
      });
    }
  }

  /** The KV key of a counter: `rl:<plan>:<window>:<32 hex digits>`, no address in it. */
  async counterKey(plan: PlanId, window: number, bucket: string): Promise<string> {
    const hash = await truncatedHmac(
      await this.hmacKey(),
      `${plan}:${window}:${bucket}`,
      COUNTER_KEY_HASH_BYTES,
      this.subtle,
    );
    return `${COUNTER_KEY_PREFIX}${plan}:${window}:${hash}`;
  }

  // Imported once; a failed import is tried again next time rather than remembered.
  private hmacKey(): Promise<CryptoKey> {
    this.key ??= importHmacKey(this.secret, this.subtle).catch((error: unknown) => {
      this.key = undefined;
      throw error;
    });
    return this.key;
  }
}
