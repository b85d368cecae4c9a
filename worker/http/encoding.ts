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
 * The members of an Accept-Encoding field (RFC 9110 section 12.5.3) in the client's order: each
 * coding in lower case, and its q parameter as written (the last one given), if any.
 */
function acceptEncodingMembers(field: string): { coding: string; q: string | undefined }[] {
  const members: { coding: string; q: string | undefined }[] = [];
  for (const member of field.split(",")) {
    const [name = "", ...params] = member.split(";");
    const coding = name.trim().toLowerCase();
    if (!coding) continue;
    let q: string | undefined;
    for (const param of params) {
      const [key = "", value = ""] = param.split("=");
      if (key.trim().toLowerCase() === "q") q = value.trim();
    }
    members.push({ coding, q });
  }
  return members;
}

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
  for (const { coding, q } of acceptEncodingMembers(acceptEncoding)) {
    const weight = q === undefined ? 1 : QVALUE.test(q) ? Number(q) : NaN;
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

/**
 * The media types Cloudflare's front line compresses itself, to suit the client, when a Worker
 * answers 200 with one of them ("Content compression", developers.cloudflare.com/speed/
 * optimization/content/compression/). Other types, `application/prs.*+json` among them, pass as
 * the Worker sent them. Compared without parameters, in lower case.
 */
const FRONT_LINE_COMPRESSED_TYPES: ReadonlySet<string> = new Set([
  ...["text/html", "text/richtext", "text/plain", "text/css", "text/x-script", "text/x-component"],
  ...["text/x-java-source", "text/x-markdown", "text/javascript", "text/js", "text/xml"],
  ...["application/javascript", "application/x-javascript", "application/x-perl"],
  ...["application/x-httpd-cgi", "application/xml", "application/rss+xml"],
  ...["application/vnd.api+json", "application/x-protobuf", "application/json"],
  ...["application/xhtml+xml", "application/vnd.ms-fontobject", "application/ttf"],
  ...["application/x-ttf", "application/otf", "application/x-otf", "application/truetype"],
  ...["application/opentype", "application/x-opentype", "application/font-woff"],
  ...["application/eot", "application/font", "application/font-sfnt", "application/wasm"],
  ...["application/javascript-binast", "application/manifest+json", "application/ld+json"],
  ...["application/graphql+json", "application/geo+json", "multipart/bag", "multipart/mixed"],
  ...["image/x-icon", "image/vnd.microsoft.icon", "image/svg+xml", "font/ttf", "font/otf"],
  "font/x-woff",
]);

/** Whether the front line re-encodes a 200 of this Content-Type to suit the client. */
export function compressedByFrontLine(mediaType: string): boolean {
  return FRONT_LINE_COMPRESSED_TYPES.has(mediaType.split(";")[0]!.trim().toLowerCase());
}

/**
 * The coding the front line sends a 200 of a type it compresses in: of the client's members
 * with a non-zero weight, highest weight first and in the client's order among equal weights,
 * the first that is gzip or br; identity when identity comes first or neither is named (the
 * front line ignores `*`). The order matters here, where RFC 9110 section 12.5.3 gives it no
 * meaning: `gzip, br` gets gzip. No field, or one with no member, leaves the Worker's choice
 * alone: undefined.
 */
export function frontLineCoding(acceptEncoding: string | null): ContentCoding | undefined {
  if (!acceptEncoding) return undefined;
  const members: { coding: string; weight: number }[] = [];
  // The front line reads a weight as a number, not to RFC 9110's qvalue grammar.
  for (const { coding, q } of acceptEncodingMembers(acceptEncoding)) {
    const weight = q === undefined ? 1 : Number(q);
    if (!Number.isNaN(weight)) members.push({ coding, weight });
  }
  if (members.length === 0) return undefined;
  // Array.prototype.sort is stable: equal weights keep the client's order.
  members.sort((a, b) => b.weight - a.weight);
  for (const { coding, weight } of members) {
    if (weight === 0) continue;
    if (coding === "gzip" || coding === "br") return coding;
    if (coding === "identity") return "identity";
  }
  return "identity";
}

/**
 * The coding of the variant to send, which is also the coding of the ETag a conditional request
 * is compared with (RFC 9110 section 8.8.3: each coding is its own representation). For a type
 * the front line compresses, the front line's choice, so the bytes the client gets are the ones
 * the tag names and the front line has nothing to re-encode; for any other type, ours
 * (selectCoding). A front-line coding the build did not store (the preview's landing page is
 * identity only) falls back to identity, which the front line then compresses itself.
 */
export function variantCoding(
  acceptEncoding: string | null,
  mediaType: string,
  available: readonly ContentCoding[],
): ContentCoding {
  if (compressedByFrontLine(mediaType)) {
    const coding = frontLineCoding(acceptEncoding);
    if (coding !== undefined) return available.includes(coding) ? coding : "identity";
  }
  return selectCoding(acceptEncoding, available);
}
