/**
 * Raw HTTP/1.1 over loopback with node:http, so the test sees exactly the bytes and header fields
 * on the wire (fetch would decompress bodies and hide framing).
 */
import { Agent, request as httpRequest } from "node:http";
import { CLIENT_ADDRESS_HEADER } from "../../worker/rate-limit/client-bucket.js";

// One connection reused across requests, as a real client does.
const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

/** One request; header names in the answer are lower case, repeated fields joined. */
export function request(
  url: URL,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: options.method ?? "GET", headers: options.headers, agent: keepAlive },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => {
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(res.headers)) {
            if (value !== undefined)
              headers[name] = Array.isArray(value) ? value.join(", ") : value;
          }
          resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
        });
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** The response's fields without those that vary per request or connection. */
export function stableHeaders(headers: Record<string, string>): Record<string, string> {
  const { date: _date, connection: _connection, "keep-alive": _keepAlive, ...rest } = headers;
  // RateLimit's t= counts down the seconds to the window's end, so two requests a moment apart
  // may differ there by a second; the plan and the remaining quota must still agree.
  if (rest.ratelimit !== undefined) rest.ratelimit = rest.ratelimit.replace(/;t=\d+/, "");
  return rest;
}

/**
 * A source of client addresses: each call gives `headers` with the client address field set to an address
 * not given before (`prefix`.x.y), so that no request of a test spends another's rate-limit quota.
 */
export function newClients(
  prefix = "198.18",
): (headers?: Record<string, string>) => Record<string, string> {
  let next = 0;
  return (headers = {}) => ({
    ...headers,
    [CLIENT_ADDRESS_HEADER]: `${prefix}.${next >> 8}.${next++ & 255}`,
  });
}
