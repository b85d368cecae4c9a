/**
 * What the response path (respond.ts) answers from: one resource's representation (RFC 9110
 * section 3.2), with its validators and media type from the manifest, and where its body comes
 * from. Data sets, their aliases and the documents have stored bodies (routes.ts makes them once
 * per isolate); a near-me slice's body is made per request (worker/near/answer.ts); a changes
 * answer is one of the stored answers its token names (worker/changes/answer.ts). A new kind of
 * answer is a new way to make a Representation, answered by the same path.
 */
import type { ContentCoding, ServedFile } from "../../contract/manifest.js";
import type { ErrorCause } from "../../contract/errors.js";
import type { PlanId } from "../../contract/rate-limits.js";
import type { Asked } from "../outcome.js";

export interface Representation {
  /** What the request asked for, as the outcome and log lines name it. */
  readonly asked: Asked;
  /**
   * The rate-limit plan it is counted under; null for the documents about the APIs, which are
   * neither rate-limited nor switched off by maintenance
   * (docs/decisions.md#the-documents-count-against-no-rate-limit-plan).
   */
  readonly plan: PlanId | null;
  /** Content-Type of a 200. */
  readonly mediaType: string;
  /** Last-Modified, an HTTP-date as the manifest writes it. */
  readonly lastModified: string;
  /** The same moment in ms since the epoch, for If-Modified-Since. */
  readonly lastModifiedMs: number;
  /** Cache-Control max-age in seconds, of a 200 and a 304 (contract/headers.ts). */
  readonly maxAge: number;
  /** Fields a 200 carries besides these (the documents' Content-Security-Policy). */
  readonly headers: readonly (readonly [string, string])[];
  /**
   * Where the body comes from; undefined when the request's parameters name no representation
   * (a near-me parameter out of range), which is answered 400.
   */
  readonly body: BodySource | undefined;
  /** With no body: the parameter at fault, which the 400 names (Invalid-Parameter). */
  readonly problem?: ParameterProblem;
}

/** What a 400 says was wrong: the parameter, as the request names it, and the form it wants. */
export interface ParameterProblem {
  readonly parameter: string;
  readonly form: string;
}

export type BodySource = StoredBody | MadeBody | GoneBody;

/**
 * A representation that existed and is kept no longer (a changes answer since a version older
 * than those kept): 410 after admission, so it counts against the quota like the 200 would
 * (RFC 9110 section 15.5.11).
 */
interface GoneBody {
  readonly kind: "gone";
}

/** Variants the build stored, read through the ASSETS binding: one per content coding. */
interface StoredBody {
  readonly kind: "stored";
  readonly variants: ServedFile["variants"];
  /** The codings stored, in CODING_PREFERENCE order (encoding.ts). */
  readonly codings: readonly ContentCoding[];
}

/**
 * Bytes made per request, identity only
 * (docs/decisions.md#filtered-answers-are-not-compressed).
 */
export interface MadeBody {
  readonly kind: "made";
  /** Strong entity tag of the bytes, known before they are made, so a 304 makes none. */
  readonly etag: string;
  /**
   * The bytes; a cause (contract/errors.ts) when what the parameters ask for is nowhere (a
   * postcode no index places), answered with that cause's status and body. Throws AssetError
   * (assets.ts) when a stored file it reads cannot be read.
   */
  make(): Promise<Uint8Array | ErrorCause>;
}
