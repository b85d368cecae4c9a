/**
 * End to end through the real Worker (workerd, behind Miniflare's model of Cloudflare's front line
 * and the local stack's own, build/preview/front-line.ts, as `npm start` runs it): for every kind
 * of path (the data sets, a changes answer, a near-me slice, the documents and the feed), every
 * order of Accept-Encoding clients send, and the tag of each stored variant, a conditional GET is
 * a 304 exactly when the tag is the one the 200 would carry, and then carries that tag, the 200's
 * Date, Vary, Cache-Control and Last-Modified, and no Content-Type, Content-Encoding or
 * Content-Length (RFC 9110 section 15.4.5): no cache can store a coding from it, right or wrong.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Manifest, ServedFile } from "../../contract/manifest.js";
import { startWorker, withinOneWindow, type RunningWorker } from "../helpers/worker.js";
import { newClients, request, stableHeaders, type RawResponse } from "./http.js";

let worker: RunningWorker;
let manifest: Manifest;

beforeAll(async () => {
  worker = await startWorker();
  ({ manifest } = worker);
}, 60_000);

afterAll(async () => {
  await worker?.dispose();
});

// Each request from its own address, so the quota never interferes with what is tested.
const fresh = newClients("198.19");
function get(path: string, headers: Record<string, string>): Promise<RawResponse> {
  return request(new URL(path, worker.base), { headers: fresh(headers) });
}

// The orders browsers, curl --compressed and HTTP libraries send, and the edge cases.
const ORDERS = ["gzip, br", "br, gzip", "gzip", "br", "identity", "*"] as const;

/**
 * The fields a 304 must repeat: the 200's, but its representation metadata (RFC 9110 section
 * 15.4.5: Content-Type, Content-Encoding, and the length and framing of its content), and the
 * quota's state, which a 304 does not spend (rate-limit tests).
 */
function comparable(headers: Record<string, string>): Record<string, string> {
  const {
    "content-type": _type,
    "content-encoding": _coding,
    "content-length": _length,
    "transfer-encoding": _framing,
    ratelimit: _state,
    ...rest
  } = stableHeaders(headers);
  return rest;
}

/** What RFC 9110 section 15.4.5 says a 304 SHOULD NOT carry: none of it. */
function expectNoRepresentationMetadata(headers: Record<string, string>, where: string): void {
  expect(headers["content-type"], where).toBeUndefined();
  expect(headers["content-encoding"], where).toBeUndefined();
  expect(headers["content-length"], where).toBeUndefined();
}

/** Every kind of path, with the variants (and so the tags) the build stored for it. */
function paths(): [string, ServedFile["variants"]][] {
  const out: [string, ServedFile["variants"]][] = [];
  for (const entry of manifest.datasets) out.push([entry.path, entry.variants]);
  for (const entry of manifest.documents) out.push([entry.path, entry.variants]);
  const changes = manifest.changes![0]!;
  const current = changes.answers[0]!;
  out.push([`${changes.path}?since=${current.since}`, current.variants]);
  return out;
}

describe("a 304 answers for the tag its 200 would carry, and names no type or coding", () => {
  it("covers the data sets, the documents, the feed and a changes answer", () => {
    const all = paths().map(([path]) => path);
    expect(all).toContain("/std/v2.2/branches");
    expect(all).toContain("/");
    expect(all).toContain("/x-std/changes.atom");
    expect(all.some((path) => path.includes("/changes?since="))).toBe(true);
  });

  for (const order of ORDERS) {
    it(`is a 304 with no Content-Type or Content-Encoding for Accept-Encoding ${order} and the 200's tag, a 200 for every other variant's`, async () => {
      for (const [path, variants] of paths()) {
        const ok = await get(path, { "Accept-Encoding": order });
        expect(ok.status, path).toBe(200);
        const etag = ok.headers["etag"]!;
        for (const [coding, variant] of Object.entries(variants)) {
          const answer = await get(path, {
            "Accept-Encoding": order,
            "If-None-Match": variant.etag,
          });
          const where = `${path} with the ${coding} tag`;
          if (variant.etag !== etag) {
            expect(answer.status, where).toBe(200);
            continue;
          }
          expect(answer.status, where).toBe(304);
          expect(answer.body.length).toBe(0);
          expect(answer.headers["etag"], where).toBe(variant.etag);
          expectNoRepresentationMetadata(answer.headers, where);
          expect(comparable(answer.headers), where).toEqual(comparable(ok.headers));
        }
      }
    });
  }

  it("answers a near-me slice's 304 with its 200's fields but no type or coding", async () => {
    const path = "/x-std/v2.2/atms/postcode/WX14AB";
    for (const order of ORDERS) {
      const ok = await get(path, { "Accept-Encoding": order });
      expect(ok.status).toBe(200);
      const answer = await get(path, {
        "Accept-Encoding": order,
        "If-None-Match": ok.headers["etag"]!,
      });
      expect(answer.status).toBe(304);
      expectNoRepresentationMetadata(answer.headers, `${path}, Accept-Encoding ${order}`);
      expect(comparable(answer.headers)).toEqual(comparable(ok.headers));
    }
  });

  it("sends no Content-Encoding on the 304 for gzip, br and the br tag, as the issue's reproduction asks", async () => {
    const entry = manifest.datasets.find((d) => d.path === "/std/v2.2/branches")!;
    const answer = await get(entry.path, {
      "Accept-Encoding": "gzip, br",
      "If-None-Match": entry.variants.br!.etag,
    });
    expect(answer.status).toBe(304);
    expect(answer.headers["etag"]).toBe(entry.variants.br!.etag);
    expect(answer.headers["content-encoding"]).toBeUndefined();
    expect(answer.headers["content-type"]).toBeUndefined();
  });
});

describe("a 304 is free", () => {
  it("leaves the RateLimit remaining where the 200 before it left it", async () => {
    const entry = manifest.datasets.find((d) => d.path === "/std/v2.2/atms")!;
    const remaining = (response: RawResponse) =>
      /;r=(\d+);/.exec(response.headers["ratelimit"]!)![1];
    const states = await withinOneWindow(async () => {
      const client = fresh();
      const at = (headers: Record<string, string>) =>
        request(new URL(entry.path, worker.base), { headers: { ...headers, ...client } });
      const first = await at({});
      const revalidated = [
        await at({ "If-None-Match": first.headers["etag"]! }),
        await at({ "If-None-Match": first.headers["etag"]! }),
        await at({ "If-Modified-Since": first.headers["last-modified"]! }),
      ];
      const again = await at({});
      return [first, ...revalidated, again].map((r) => [r.status, remaining(r)]);
    });
    // The spec's Default Plan: 145 a minute (wrangler.toml's [vars] keep it).
    expect(states).toEqual([
      [200, "144"],
      [304, "144"],
      [304, "144"],
      [304, "144"],
      [200, "143"],
    ]);
  });
});
