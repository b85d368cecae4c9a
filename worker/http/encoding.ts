/**
 * Proactive negotiation of the content coding (RFC 9110 section 12.5.3) among the variants the
 * build precompressed. Nothing is compressed per request: the chosen file is sent as it is.
 */
import type { ContentCoding } from "../../contract/manifest.js";

/** Among equally acceptable codings, the smallest representation wins. */
export const CODING_PREFERENCE: readonly ContentCoding[] = ["br", "gzip", "identity"];

/**
 * The Accept-Encoding the client sent. Behind Cloudflare's front line (and in workerd locally)
 * the Worker's own Accept-Encoding header is the front line's `br, gzip`; the client's value is in
 * `request.cf.clientAcceptEncoding`, an empty string when the client sent none. The header is
 * used only where there is no such field (a request that did not come through a front line).
 */
export function clientAcceptEncoding(request: Request): string | null {
  const fromEdge = request.cf?.clientAcceptEncoding;
  return typeof fromEdge === "string" ? fromEdge : request.headers.get("Accept-Encoding");
}

// A weight (RFC 9110 section 12.4.2): 0 to 1 with at most three decimals.
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;
// identity is acceptable unless excluded (RFC 9110 section 12.5.3), but a coding the client named
// is what it prefers: unnamed identity ranks below every named coding with a non-zero weight.
const IMPLICIT_IDENTITY_WEIGHT = 0.0001;

/**
 * The coding to send, from `available` (in CODING_PREFERENCE order). No field, or an empty one,
 * means identity: RFC 9110 would allow any coding then, but a client that did not ask (curl
 * without --compressed) should not get brotli. When nothing listed is acceptable, identity is
 * sent too, which section 12.5.3 permits, rather than a 406.
 */
export function selectCoding(
  acceptEncoding: string | null,
  available: readonly ContentCoding[],
): ContentCoding {
  if (!acceptEncoding) return "identity";
  const weights = new Map<string, number>();
  for (const member of acceptEncoding.split(",")) {
    const [name = "", ...params] = member.split(";");
    const coding = name.trim().toLowerCase();
    if (!coding) continue;
    let weight = 1;
    for (const param of params) {
      const [key = "", value = ""] = param.split("=");
      if (key.trim().toLowerCase() !== "q") continue;
      weight = QVALUE.test(value.trim()) ? Number(value) : NaN;
    }
    // RFC 9110 section 8.4.1.3: x-gzip is gzip.
    if (!Number.isNaN(weight)) weights.set(coding === "x-gzip" ? "gzip" : coding, weight);
  }
  const any = weights.get("*");
  let best: ContentCoding = "identity";
  let bestWeight = 0;
  for (const coding of available) {
    const weight =
      weights.get(coding) ?? any ?? (coding === "identity" ? IMPLICIT_IDENTITY_WEIGHT : 0);
    if (weight > bestWeight) [best, bestWeight] = [coding, weight];
  }
  return best;
}
