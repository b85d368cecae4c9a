/**
 * Reference Worker for the edge benchmarks: a fixed 304 with the fields ours carries (the security
 * and CORS fields, the validators, caching, the quota's and Date, at the lengths ours has under the
 * benchmark's limits), reading nothing and deciding nothing. Beside fixed-304.ts, whose 304 has one
 * field, it is the floor of our 304: what the runtime and the load generator spend on a 304 with
 * these fields, so the difference between the two is the fields' bytes, not our code.
 */
import {
  BASE_HEADERS,
  cacheControl,
  DEFAULT_MAX_AGE_SECONDS,
  RATE_LIMIT_HEADER,
  RATE_LIMIT_POLICY_HEADER,
  VARY,
} from "../../contract/headers.js";

const FIELDS: [string, string][] = [
  ...Object.entries(BASE_HEADERS),
  ["ETag", `"${"0".repeat(64)}"`],
  ["Last-Modified", "Tue, 24 Nov 2026 23:34:11 GMT"],
  ["Cache-Control", cacheControl(DEFAULT_MAX_AGE_SECONDS)],
  ["Vary", VARY],
  [RATE_LIMIT_POLICY_HEADER, '"open-data";q=1000000000;w=60'],
  [RATE_LIMIT_HEADER, '"open-data";r=1000000000;t=60'],
  ["Date", "Tue, 01 Dec 2026 21:40:00 GMT"],
];

export default {
  fetch(): Response {
    return new Response(null, { status: 304, headers: FIELDS });
  },
};
