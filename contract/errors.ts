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

/** Media type of error bodies; the specs define none, and they are plain JSON. */
export const ERROR_MEDIA_TYPE = "application/json";

/**
 * Sent instead of the spec's `Status Code` header: a field name cannot contain a space
 * (RFC 9110 section 5.1, field-name is a token), so this is the closest valid name.
 */
export const STATUS_CODE_HEADER = "Status-Code";
