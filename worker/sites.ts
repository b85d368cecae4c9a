/**
 * Which site a request is for, with content/site.yaml's Sites (docs/decisions.md#sites): the
 * request's host, as the build wrote each site's (lower case, no port, no trailing dot), looked up
 * once per request in a map made once per isolate. Pure, so it is tested as a table.
 */

/**
 * The host a request names, as the sites' table is keyed, or undefined for none. Host names are
 * case-insensitive (RFC 3986 section 3.2.2; RFC 9110 section 4.2.3), a port is not part of the
 * host (RFC 9110 section 7.2: Host is uri-host [ ":" port ]), and a trailing dot names the same
 * host (RFC 1034 section 3.1: an absolute name). An IPv6 literal keeps its brackets.
 */
export function hostKey(host: string | null | undefined): string | undefined {
  if (!host) return undefined;
  let name = host;
  const colon = name.lastIndexOf(":");
  // A port follows the last colon, unless that colon is inside an IPv6 literal's brackets.
  if (colon >= 0 && name.indexOf("]", colon) < 0) name = name.slice(0, colon);
  if (name.endsWith(".")) name = name.slice(0, -1);
  return name === "" ? undefined : name.toLowerCase();
}

/**
 * The host of a request: its Host header (RFC 9110 section 7.2), or, where a runtime gave none,
 * the authority of its URL (HTTP/2's :authority, which Workers put there).
 */
export function requestHost(hostHeader: string | null, url: string): string | undefined {
  if (hostHeader !== null) return hostKey(hostHeader);
  const start = url.indexOf("//");
  if (start < 0) return undefined;
  const end = url.indexOf("/", start + 2);
  return hostKey(url.slice(start + 2, end < 0 ? undefined : end));
}
