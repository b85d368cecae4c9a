/**
 * What one request asked for and how it was answered, filled in while it is answered (handler.ts
 * and the response path, http/respond.ts) so that the entry can read it once the answer is made:
 * the one record of every request, which the request metrics (metrics/record.ts) turn into a data
 * point. Plain fields, set in place: no allocation beyond the record itself, and nothing is read
 * from the Response afterwards.
 */
import type { ContentCoding } from "../contract/manifest.js";
import type { AskedKind } from "../contract/metrics.js";
import type { PlanId } from "../contract/rate-limits.js";

/**
 * What a request asked for: which resource its path names, before any check of the request.
 * Made once per isolate for each route (routes.ts, near/query.ts), never per request.
 */
export interface Asked {
  /**
   * dataset: a data set's path or one of its aliases; document: a document about the APIs (the
   * landing page, its stylesheet, /openapi.json); near: a near-me extension path; unknown: a path
   * not served, a URL that does not parse, or a plain-http request redirected before routing.
   */
  readonly kind: AskedKind;
  /** The data set's manifest id, or the document's path; null for unknown. */
  readonly name: string | null;
  /** How it was asked: "alias" for a live-standard alias, a near-me path's filter; else "". */
  readonly detail: string;
}

/** The one Asked of every request whose path names nothing served. */
const UNKNOWN: Asked = { kind: "unknown", name: null, detail: "" };

/** One request's record. */
export interface Outcome {
  asked: Asked;
  /** The rate-limit plan the path is counted under; null for documents and unknown paths. */
  plan: PlanId | null;
  /** The HTTP status answered. */
  status: number;
  /**
   * The content coding of the representation answered (a 200, its HEAD, or a 304); null where
   * none was (errors, redirects, preflights).
   */
  coding: ContentCoding | null;
  /** Bytes of the body sent: 0 for HEAD, 304, 204 and 308. */
  bytes: number;
  /**
   * The length of the body a GET's 200 carries in `coding`: what a 304 or a HEAD saved. 0 where
   * no representation was chosen.
   */
  fullBytes: number;
  /** The identity body's length, for what compression saved; 0 where none was chosen. */
  identityBytes: number;
  /** The site answering, by its Name, with site.yaml's Sites; "" without (or no site's host). */
  site: string;
}

/** A blank record for one request. */
export function newOutcome(): Outcome {
  return {
    asked: UNKNOWN,
    plan: null,
    status: 0,
    coding: null,
    bytes: 0,
    fullBytes: 0,
    identityBytes: 0,
    site: "",
  };
}
