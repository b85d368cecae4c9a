/**
 * The error bodies. Both specs, "Errors": the body is exactly {"status","title","description"},
 * all strings, `status` holding the HTTP status code. 400, 408, 429, 500 and 503 use the spec's
 * titles and descriptions word for word; the other statuses keep the shape with our own text.
 * Part of the build–Worker contract: the Worker answers with them and /openapi.json states them.
 */

export const ERRORS = {
  400: {
    title: "Bad request",
    description: "You have sent a request which could not be understood.",
  },
  404: {
    title: "Not found",
    description: "There is no resource at this path.",
  },
  405: {
    title: "Method not allowed",
    description: "This resource supports only the methods GET and HEAD.",
  },
  408: {
    title: "Client timeout",
    description: "Your client has failed to submit a request, and a timeout has occurred.",
  },
  // The changes endpoint (contract/changes.ts): a `since` token older than the versions kept, or
  // one never published here. RFC 9110 section 15.5.11: the state it named is gone for good.
  410: {
    title: "Gone",
    description:
      "The version you asked for changes since is not kept here (too old, or never published). Fetch the full list from the data set's path and ask for changes since its meta.LastUpdated from then on.",
  },
  // RFC 9110 section 13.2.2: If-Match or If-Unmodified-Since evaluated to false. The specs name
  // neither field; an origin server must still evaluate both (sections 13.1.1 and 13.1.4).
  412: {
    title: "Precondition failed",
    description:
      "The representation is not the one your If-Match or If-Unmodified-Since names: it has changed since. Fetch it again without those fields.",
  },
  429: {
    title: "Too many requests",
    description: "You have requested this resource too often. Slow down.",
  },
  500: {
    title: "Internal server error",
    description: "An error occurred on the server. No further information is available.",
  },
  503: {
    title: "Service temporarily unavailable",
    description: "The service is temporarily unavailable.",
  },
} as const;

export type ErrorStatus = keyof typeof ERRORS;

/**
 * Causes a client can act on that share a status with others, each with its own description in
 * the same body shape (the status's title): a 404 for a well-formed postcode nothing places reads
 * apart from the 404 of a path that names nothing (docs/decisions.md, "A postcode that cannot be
 * placed").
 */
export const ERROR_CAUSES = {
  "postcode-not-placed": {
    status: 404,
    description:
      "The postcode is well formed but could not be placed: no record or known point here is in its unit, sector or district. Try a nearby postcode, or the geo-location path with its latitude and longitude.",
  },
} as const satisfies Record<string, { status: ErrorStatus; description: string }>;

export type ErrorCause = keyof typeof ERROR_CAUSES;

/**
 * The field a 400 carries when one parameter is at fault: it names the parameter and the form
 * it wants, as an RFC 9651 Item, a String with a String parameter:
 * `Invalid-Parameter: "since";expected="…"`. The body stays the spec's, word for word
 * (docs/consumers.md#the-apis, "What a 400 found wrong").
 */
export const INVALID_PARAMETER_HEADER = "Invalid-Parameter";

/**
 * Each parameter's form, as the Invalid-Parameter field states it (printable ASCII, no double
 * quote or backslash, as an RFC 9651 String allows without escapes).
 */
export const PARAMETER_FORMS = {
  since:
    "exactly one since: a meta.LastUpdated as published, UTC with whole seconds and Z (2026-11-24T23:21:56Z), or an ETag's 64 hex digits without its quotes",
  lat: "a decimal number of degrees from -90 to 90 (51.5074): no exponent, no plus sign",
  long: "a decimal number of degrees from -180 to 180 (-0.1278): no exponent, no plus sign",
  radius: "at most one radius: a decimal number of miles from 1 to 10 (2)",
  country: "an ISO 3166-1 alpha-2 country code, any case (GB; UK reads as GB)",
  town: "a town's name, percent-encoded, not empty (Stainby%20Cross)",
  postcode: "a full UK postcode, any case, with or without its space (WX14AB, WX1%204AB)",
  sortcode: "six digits (401234)",
  segment: "one of the data set's Segment codes, any case",
} as const;

export type Parameter = keyof typeof PARAMETER_FORMS;

/** The form Invalid-Parameter states for a query parameter a path does not take. */
export const UNKNOWN_PARAMETER_FORM = "no such parameter here: leave it out";

/** Media type of error bodies; the specs define none, and they are plain JSON. */
export const ERROR_MEDIA_TYPE = "application/json";

/**
 * Sent instead of the spec's `Status Code` header: a field name cannot contain a space
 * (RFC 9110 section 5.1, field-name is a token), so this is the closest valid name.
 */
export const STATUS_CODE_HEADER = "Status-Code";
