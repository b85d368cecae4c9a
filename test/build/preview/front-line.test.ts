/**
 * The local stack's front line (build/preview/front-line.ts): what it passes and the one field it
 * drops. A bodiless answer (204, 304: RFC 9110 sections 15.3.5 and 15.4.5) loses the
 * Content-Encoding Miniflare's model labels it with; every other answer reaches the client as the
 * Worker behind made it, coding and all, since Cloudflare's front line is what compresses those.
 */
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  frontLineFields,
  startFrontLine,
  type FrontLine,
} from "../../../build/preview/front-line.js";

describe("frontLineFields", () => {
  const raw = [
    "ETag",
    '"a"',
    "Content-Encoding",
    "gzip",
    "Connection",
    "keep-alive",
    "Vary",
    "Accept-Encoding",
  ];
  it.each([
    [304, ["ETag", '"a"', "Vary", "Accept-Encoding"]],
    [204, ["ETag", '"a"', "Vary", "Accept-Encoding"]],
    [200, ["ETag", '"a"', "Content-Encoding", "gzip", "Vary", "Accept-Encoding"]],
    [404, ["ETag", '"a"', "Content-Encoding", "gzip", "Vary", "Accept-Encoding"]],
  ])("for a %i keeps %j", (status, expected) => {
    expect(frontLineFields(status, raw)).toEqual(expected);
  });
});

describe("startFrontLine, in front of a server that labels every answer gzip", () => {
  let upstream: Server;
  let front: FrontLine;
  const seen: { host?: string; method?: string; path?: string }[] = [];

  beforeAll(async () => {
    upstream = createServer((req, res) => {
      seen.push({ host: req.headers.host, method: req.method, path: req.url });
      const status = Number(new URL(req.url!, "http://x").searchParams.get("status"));
      res.writeHead(status, { "Content-Encoding": "gzip", ETag: '"t"' });
      res.end(status === 200 ? "body" : undefined);
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    const { port } = upstream.address() as AddressInfo;
    front = await startFrontLine(new URL(`http://127.0.0.1:${port}/`), 0);
  });

  afterAll(async () => {
    await front.close();
    await new Promise((resolve) => upstream.close(resolve));
  });

  function ask(path: string, method = "GET") {
    return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
      (resolve, reject) => {
        const req = request(new URL(path, front.url), {
          method,
          headers: { Host: "bank.example" },
        });
        req.on("response", (res) => {
          let body = "";
          res.on("data", (chunk: Buffer) => (body += chunk.toString()));
          res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
        });
        req.on("error", reject);
        req.end();
      },
    );
  }

  it("drops Content-Encoding from a 304 and keeps its other fields", async () => {
    const answer = await ask("/data?status=304");
    expect(answer.status).toBe(304);
    expect(answer.headers["content-encoding"]).toBeUndefined();
    expect(answer.headers["etag"]).toBe('"t"');
  });

  it("passes a 200 with its Content-Encoding and body as they are", async () => {
    const answer = await ask("/data?status=200");
    expect(answer.status).toBe(200);
    expect(answer.headers["content-encoding"]).toBe("gzip");
    expect(answer.body).toBe("body");
  });

  it("forwards the method, the path with its query and the client's Host", async () => {
    seen.length = 0;
    await ask("/x?status=204", "HEAD");
    expect(seen).toEqual([{ host: "bank.example", method: "HEAD", path: "/x?status=204" }]);
  });
});
