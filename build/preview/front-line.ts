/**
 * The local stack's last step before the client, in front of the Worker wrangler runs (`npm start`
 * and the end-to-end tests' Worker): every request and answer passes as it is, but for one field
 * Miniflare adds where Cloudflare does not.
 *
 * Miniflare models Cloudflare's front line in its entry worker (miniflare's
 * `ensureAcceptableEncoding`): an answer with no Content-Type, or one of a type the front line
 * compresses, is given the client's preferred coding, whatever its status. So a 304 or 204, which
 * carry no Content-Type and no content (RFC 9110 sections 15.4.5 and 15.3.5), reach a client that
 * accepts gzip labelled `Content-Encoding: gzip`; wrangler's proxy runs a second such entry in
 * front of the first. Cloudflare compresses only responses with status 200, 403 and 404
 * ("Content compression", developers.cloudflare.com/speed/optimization/content/compression/),
 * so a deployed Worker's 304 reaches its client as the Worker made it. Here a bodiless answer's
 * Content-Encoding is dropped, which puts the local stack back to the documented behaviour; the
 * Worker itself sets none (test/worker/http/respond.test.ts, with no Miniflare in between).
 * docs/decisions.md#304s-carry-no-content-type-or-content-encoding says why it lives here.
 */
import { Agent, createServer, request as forward, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/** Statuses that never carry content (RFC 9110 sections 15.3.5 and 15.4.5). */
const NO_CONTENT: ReadonlySet<number> = new Set([204, 304]);

// Hop-by-hop fields (RFC 9110 section 7.6.1): each connection's own, never passed on.
const HOP_BY_HOP: ReadonlySet<string> = new Set(["connection", "keep-alive"]);

export interface FrontLine {
  readonly url: URL;
  close(): Promise<void>;
}

/** `raw` (name, value, name, value…) without the fields `drop` names, in lower case. */
function without(raw: readonly string[], drop: (name: string) => boolean): string[] {
  const kept: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (!drop(raw[i]!.toLowerCase())) kept.push(raw[i]!, raw[i + 1]!);
  }
  return kept;
}

/** The answer's fields as the client gets them. */
export function frontLineFields(status: number, raw: readonly string[]): string[] {
  return without(
    raw,
    (name) => HOP_BY_HOP.has(name) || (NO_CONTENT.has(status) && name === "content-encoding"),
  );
}

/** Listens on `hostname`:`port` (0: a free port) and forwards every request to `upstream`. */
export async function startFrontLine(
  upstream: URL,
  port: number,
  hostname = "127.0.0.1",
): Promise<FrontLine> {
  const agent = new Agent({ keepAlive: true });
  const server = createServer((request, response) => {
    const outgoing = forward(
      {
        hostname: upstream.hostname,
        port: upstream.port,
        method: request.method,
        path: request.url,
        // The client's own fields, Host among them, so the Worker sees the address it was asked at.
        headers: without(request.rawHeaders, (name) => HOP_BY_HOP.has(name)),
        agent,
      },
      (answer: IncomingMessage) => {
        const status = answer.statusCode ?? 502;
        response.writeHead(
          status,
          answer.statusMessage,
          frontLineFields(status, answer.rawHeaders),
        );
        answer.pipe(response);
      },
    );
    outgoing.on("error", () => {
      if (!response.headersSent) response.writeHead(502);
      response.end();
    });
    request.pipe(outgoing);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, hostname, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: new URL(`http://${hostname}:${bound}/`),
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
