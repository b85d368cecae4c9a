/**
 * https only (both specs, "What the service does": only the scheme https is offered). Plain http
 * is redirected, except on loopback so that local development works without certificates.
 */

/** Host names served over plain http: local development only. */
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * Where to send a plain-http request: the same path and query over https on the default port, or
 * undefined when the request is to be served as it is. 308 rather than 301 keeps the method
 * (RFC 9110 section 15.4.9).
 */
export function httpsLocation(url: URL): string | undefined {
  if (url.protocol !== "http:" || LOOPBACK_HOSTS.has(url.hostname)) return undefined;
  return `https://${url.hostname}${url.pathname}${url.search}`;
}
