/**
 * A stand-in for Cloudflare's Workers Analytics Engine SQL API on loopback, for `npm run stats`:
 * an HTTP server on 127.0.0.1 and a free port that records every request (method, path,
 * Authorization, the SQL text) and answers what the test sets, by default a query result in the
 * API's `FORMAT JSON` shape: `{"meta": [{name, type}], "data": [rows], "rows": n,
 * "rows_before_limit_at_least": n}`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface SqlApiRequest {
  readonly method: string;
  readonly path: string;
  readonly authorization: string | undefined;
  readonly contentType: string | undefined;
  readonly sql: string;
}

export interface CannedAnswer {
  readonly status: number;
  readonly body: string;
  readonly contentType?: string;
}

/** What the fake answers a request with; "hang" never answers. */
export type SqlApiHandler = (request: SqlApiRequest) => CannedAnswer | "hang";

/** The API's answer to a SELECT … FORMAT JSON, with `rows` as the data (column types as the API names them). */
export function queryResult(rows: readonly Record<string, unknown>[]): CannedAnswer {
  const columns = rows[0] ? Object.keys(rows[0]) : [];
  const meta = columns.map((name) => ({
    name,
    type: typeof rows[0]![name] === "string" ? "String" : "Float64",
  }));
  return {
    status: 200,
    contentType: "application/json",
    body: JSON.stringify({
      meta,
      data: rows,
      rows: rows.length,
      rows_before_limit_at_least: rows.length,
    }),
  };
}

export class FakeSqlApi {
  readonly requests: SqlApiRequest[] = [];
  handler: SqlApiHandler = () => queryResult([]);
  private server: Server | undefined;
  private readonly hanging = new Set<ServerResponse>();

  /** The base URL to give as CLOUDFLARE_API_BASE_URL (like https://api.cloudflare.com/client/v4). */
  baseUrl = "";

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.answer(req, res));
    await new Promise<void>((listening) => this.server!.listen(0, "127.0.0.1", listening));
    const { port } = this.server.address() as AddressInfo;
    this.baseUrl = `http://127.0.0.1:${port}/client/v4`;
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    await new Promise<void>((closed) => this.server?.close(() => closed()) ?? closed());
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request: SqlApiRequest = {
      method: req.method ?? "",
      path: req.url ?? "",
      authorization: req.headers.authorization,
      contentType: req.headers["content-type"],
      sql: Buffer.concat(chunks).toString("utf8"),
    };
    this.requests.push(request);
    const answer = this.handler(request);
    if (answer === "hang") {
      this.hanging.add(res);
      return;
    }
    res.writeHead(answer.status, { "Content-Type": answer.contentType ?? "text/plain" });
    res.end(answer.body);
  }
}

/** A loopback port nothing listens on: connecting to it is refused at once. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((closed) => server.close(() => closed()));
  return port;
}
