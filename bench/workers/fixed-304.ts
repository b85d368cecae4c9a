/**
 * Reference Worker for the edge benchmarks: a 304 with a fixed ETag, reading nothing. In the
 * benchmark harness a request's own cost dominates a 304 (platform notes), so our 304 is compared
 * with this one as well as with our 200.
 */
export default {
  fetch(): Response {
    return new Response(null, { status: 304, headers: { ETag: '"fixed"' } });
  },
};
