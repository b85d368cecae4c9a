/**
 * End to end: the extension endpoints of the built sample through the real Worker in workerd,
 * over loopback. Answers are compared with the reference filter over the full list the same
 * Worker serves (test/helpers/near-reference.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validatorFor } from "../../build/check/schemas.js";
import { CLIENT_ADDRESS_HEADER } from "../../worker/rate-limit/client-bucket.js";
import {
  addressOf,
  answerRecords,
  listRecords,
  referenceMiles,
  referenceNear,
  referenceTown,
  positionOf,
  type Body,
  type Listed,
} from "../helpers/near-reference.js";
import {
  DECIDED,
  SPEC_CACHE_CONTROL,
  SPEC_SECURITY_HEADERS,
  specErrorBody,
} from "../helpers/spec-values.js";
import { startWorker, type RunningWorker } from "../helpers/worker.js";
import { newClients, request, type RawResponse } from "./http.js";
import { schemaAjv } from "../helpers/schemas.js";
import { runExample, shellExamples, statusesOf } from "../helpers/page-examples.js";

const V22 = "application/prs.std.opendata.v2.2+json";

let worker: RunningWorker;
let base: URL;
let atms: Listed[];
let branches: Listed[];
let pcas: Listed[];
let atmsBody: Body;

const fresh = newClients("198.19");
const get = (path: string, headers: Record<string, string> = {}, method = "GET") =>
  request(new URL(path, base), { method, headers: fresh(headers) });
const json = (response: RawResponse) => JSON.parse(response.body.toString("utf8")) as Body;

beforeAll(async () => {
  worker = await startWorker();
  base = worker.base;
  atmsBody = json(await get("/std/v2.2/atms"));
  atms = listRecords(atmsBody, "ATM");
  branches = listRecords(json(await get("/std/v2.2/branches")), "Branch");
  pcas = listRecords(json(await get("/std/v2.2/personal-current-accounts")), "PCA");
}, 60_000);

afterAll(async () => {
  await worker?.dispose();
});

// Wexbury, where the sample has two ATMs at one postcode (WX1 4AB).
const WEXBURY = [54.12372, -1.73411] as const;

describe("a geo-location query over loopback", () => {
  const path = `/x-std/v2.2/atms/geo-location/lat/${WEXBURY[0]}/long/${WEXBURY[1]}?radius=2`;

  it("answers the ATMs within the radius, nearest first, as the reference filter does", async () => {
    const response = await get(path);
    expect(response.status).toBe(200);
    const body = json(response);
    const expected = referenceNear(atms, WEXBURY[0], WEXBURY[1], 2);
    expect(expected.length).toBeGreaterThan(0);
    expect(answerRecords(body, "ATM")).toEqual(expected);
    expect(body.meta.TotalResults).toBe(expected.length);
    const miles = answerRecords(body, "ATM").map((r) => {
      const [lat, lon] = positionOf(r)!;
      return referenceMiles(WEXBURY[0], WEXBURY[1], lat, lon);
    });
    expect(miles).toEqual([...miles].sort((a, b) => a - b));
    expect(miles.every((m) => m <= 2)).toBe(true);
  });

  it("keeps the full list's meta apart from the count, and is valid under the data set's schema", async () => {
    const body = json(await get(path));
    const { TotalResults: _a, ...meta } = body.meta;
    const { TotalResults: _b, ...fullMeta } = atmsBody.meta;
    expect(meta).toEqual(fullMeta);
    const validate = validatorFor(schemaAjv(), "atms.schema.json");
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
  });

  it("sends the data set's headers: media type, strong ETag, Last-Modified, caching, security, CORS, quota", async () => {
    const full = await get("/std/v2.2/atms");
    const response = await get(path);
    const h = response.headers;
    expect(h["content-type"]).toBe(V22);
    expect(h["etag"]).toMatch(/^"[\x21\x23-\x7e]+"$/);
    expect(h["etag"]).not.toBe(full.headers["etag"]);
    expect(h["last-modified"]).toBe(full.headers["last-modified"]);
    expect(h["cache-control"]).toBe(SPEC_CACHE_CONTROL);
    expect(h["content-length"]).toBe(String(response.body.length));
    for (const [name, value] of SPEC_SECURITY_HEADERS) expect(h[name.toLowerCase()]).toBe(value);
    for (const [name, value] of Object.entries(DECIDED.cors)) {
      expect(h[name.toLowerCase()]).toBe(value);
    }
    expect(h[DECIDED.rateLimitHeader.toLowerCase()]).toBeDefined();
  });

  it("turns a second request with the ETag into a 304, and one with the Last-Modified too", async () => {
    const first = await get(path);
    const again = await get(path, { "If-None-Match": first.headers["etag"]! });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers["etag"]).toBe(first.headers["etag"]);
    const since = await get(path, { "If-Modified-Since": first.headers["last-modified"]! });
    expect(since.status).toBe(304);
  });

  it("gives the same ETag to every spelling of the same question, and another to another radius", async () => {
    const a = await get(`/x-std/v2.2/atms/geo-location/lat/54.123720/long/-1.73411?radius=2.0`);
    const b = await get(path);
    const c = await get(
      `/x-std/v2.2/atms/geo-location/lat/${WEXBURY[0]}/long/${WEXBURY[1]}?radius=3`,
    );
    expect(a.headers["etag"]).toBe(b.headers["etag"]);
    expect(c.headers["etag"]).not.toBe(b.headers["etag"]);
  });

  it("sends the answer as identity even to a client that accepts brotli and gzip", async () => {
    const response = await get(path, { "Accept-Encoding": "br, gzip" });
    expect(response.headers["content-encoding"]).toBeUndefined();
    expect(answerRecords(json(response), "ATM")).toEqual(
      referenceNear(atms, WEXBURY[0], WEXBURY[1], 2),
    );
  });

  it("answers HEAD with GET's fields and no body", async () => {
    const getResponse = await get(path);
    const head = await get(path, {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers["content-length"]).toBe(getResponse.headers["content-length"]);
    expect(head.headers["etag"]).toBe(getResponse.headers["etag"]);
  });

  it("uses a radius of 1 mile when none is given", async () => {
    const body = json(
      await get(`/x-std/v2.2/atms/geo-location/lat/${WEXBURY[0]}/long/${WEXBURY[1]}`),
    );
    expect(answerRecords(body, "ATM")).toEqual(referenceNear(atms, WEXBURY[0], WEXBURY[1], 1));
  });

  it("answers 200 with an empty list where nothing is near", async () => {
    const response = await get("/x-std/v2.2/atms/geo-location/lat/0/long/0?radius=10");
    expect(response.status).toBe(200);
    const body = json(response);
    expect(body.meta.TotalResults).toBe(0);
    expect(body.data).toEqual([]);
  });

  it("counts against the data set's own quota, whichever path the client uses", async () => {
    const client = { [CLIENT_ADDRESS_HEADER]: "198.18.250.1" };
    const remaining = (r: RawResponse) => Number(/r=(\d+)/.exec(r.headers["ratelimit"]!)![1]);
    const one = await request(new URL("/std/v2.2/branches", base), { headers: client });
    const two = await request(new URL(path, base), { headers: client });
    expect(remaining(two)).toBe(remaining(one) - 1);
  });

  it("answers a CORS preflight as on the standard paths", async () => {
    const response = await get(path, { Origin: "https://app.example" }, "OPTIONS");
    expect(response.status).toBe(204);
    for (const [name, value] of Object.entries(DECIDED.preflight)) {
      expect(response.headers[name.toLowerCase()]).toBe(value);
    }
  });
});

describe("the landing page's example", () => {
  it("finds ATMs near a point with curl, pasted as it is with ORIGIN set, and answers records", async () => {
    const page = (await get("/")).body.toString("utf8");
    const example = shellExamples(page).find((b) => b.includes("/geo-location/"));
    expect(example).toContain('curl -si "$ORIGIN/x-std/v2.2/atms/geo-location/lat/');
    const ran = await runExample(example!, base.origin);
    expect(ran.code).toBe(0);
    expect(statusesOf(ran.stdout)).toEqual([200]);
    const body = JSON.parse(ran.stdout.slice(ran.stdout.indexOf("\r\n\r\n") + 4)) as Body;
    expect(body.meta.TotalResults).toBeGreaterThan(0);
  });
});

describe("the other filters over loopback", () => {
  it("answers a country, and a town of it in any letter case, in publication order", async () => {
    const country = json(await get("/x-std/v2.2/atms/country/GB"));
    expect(answerRecords(country, "ATM")).toEqual(referenceTown(atms, "GB"));
    const town = json(await get("/x-std/v2.2/branches/country/gb/town/WEXBURY"));
    const expected = referenceTown(branches, "GB", "Wexbury");
    expect(expected.length).toBeGreaterThan(0);
    expect(answerRecords(town, "Branch")).toEqual(expected);
    const spaced = json(await get("/x-std/v2.2/atms/country/GB/town/stainby%20cross"));
    expect(answerRecords(spaced, "ATM")).toEqual(referenceTown(atms, "GB", "Stainby Cross"));
  });

  it("answers a postcode with the records within 5 miles of it, nearest first", async () => {
    const body = json(await get("/x-std/v2.2/atms/postcode/wx14ab"));
    // The publisher's own records at WX1 4AB, branches and ATMs alike, place the postcode: the
    // mean of their positions (docs/decisions.md#placing-a-postcode).
    const at = [...atms, ...branches]
      .filter((l) => positionOf(l.record) && addressOf(l.record).PostCode === "WX1 4AB")
      .map((l) => positionOf(l.record)!);
    const lat = at.reduce((s, p) => s + p[0], 0) / at.length;
    const lon = at.reduce((s, p) => s + p[1], 0) / at.length;
    expect(at.length).toBeGreaterThan(1);
    expect(answerRecords(body, "ATM")).toEqual(referenceNear(atms, lat, lon, 5));
  });

  it("answers a postcode as typed, with its space or in lower case, as the postcode without", async () => {
    const compact = await get("/x-std/v2.2/atms/postcode/WX14AB");
    expect(compact.status).toBe(200);
    for (const typed of ["WX1%204AB", "wx1%204ab", "wx14ab"]) {
      const response = await get(`/x-std/v2.2/atms/postcode/${typed}`);
      expect(response.status).toBe(200);
      expect(response.headers["etag"]).toBe(compact.headers["etag"]);
      expect(response.body.equals(compact.body)).toBe(true);
    }
  });

  it("answers a branch's sort code", async () => {
    const withCode = branches.find((l) => Array.isArray(l.record.SortCode))!;
    const code = String((withCode.record.SortCode as string[])[0]).replace(/\D/g, "");
    const body = json(await get(`/x-std/v2.2/branches/sortcode/${code}`));
    const expected = branches.filter((l) =>
      ((l.record.SortCode ?? []) as string[]).some((s) => s.replace(/\D/g, "") === code),
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(answerRecords(body, "Branch")).toEqual(expected.map((l) => l.record));
  });

  it("answers a product segment", async () => {
    const body = json(await get("/x-std/v2.2/personal-current-accounts/segment/General"));
    const expected = pcas.filter((l) => ((l.record.Segment ?? []) as string[]).includes("General"));
    expect(expected.length).toBeGreaterThan(0);
    expect(answerRecords(body, "PCA")).toEqual(expected.map((l) => l.record));
  });
});

describe("extension requests that are not answered with data", () => {
  const error = (status: number) => specErrorBody(status);
  it.each([
    ["a latitude out of range", "/x-std/v2.2/atms/geo-location/lat/91/long/0", "lat"],
    ["a latitude that is not a number", "/x-std/v2.2/atms/geo-location/lat/north/long/0", "lat"],
    ["a longitude out of range", "/x-std/v2.2/atms/geo-location/lat/51/long/-180.5", "long"],
    ["a radius below 1", "/x-std/v2.2/atms/geo-location/lat/51/long/0?radius=0.5", "radius"],
    ["a radius above 10", "/x-std/v2.2/atms/geo-location/lat/51/long/0?radius=11", "radius"],
    [
      "a radius that is not a number",
      "/x-std/v2.2/atms/geo-location/lat/51/long/0?radius=far",
      "radius",
    ],
    ["an unknown country", "/x-std/v2.2/branches/country/XX", "country"],
    ["a malformed postcode", "/x-std/v2.2/branches/postcode/WX1-4AB", "postcode"],
    ["an unknown segment", "/x-std/v2.2/personal-current-accounts/segment/Platinum", "segment"],
    ["a sort code that is not six digits", "/x-std/v2.2/branches/sortcode/12345", "sortcode"],
  ])("answers %s with the spec's 400, naming the parameter", async (_, path, parameter) => {
    const response = await get(path);
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body.toString("utf8"))).toEqual(error(400));
    expect(response.headers["invalid-parameter"]).toMatch(
      new RegExp(`^"${parameter}";expected="[^"]+"$`),
    );
  });

  it.each([
    ["a filter the data set does not offer", "/x-std/v2.2/atms/sortcode/123456"],
    ["a data set without extension paths", "/x-std/v1.0/reg-service-metrics/pca/segment/x"],
    ["a path with a segment too many", "/x-std/v2.2/atms/country/GB/town/Wexbury/more"],
    ["the live prefix when OpenBankingPaths is off", "/x-open-banking/v2.2/atms/country/GB"],
  ])("answers %s with 404", async (_, path) => {
    const response = await get(path);
    expect(response.status).toBe(404);
    expect(JSON.parse(response.body.toString("utf8"))).toEqual(error(404));
  });

  it("answers a well-formed postcode nothing places with a 404 that says so, not a wrong path's", async () => {
    for (const path of [
      "/x-std/v2.2/atms/postcode/ZZ99ZZ",
      "/x-std/v2.2/atms/postcode/ZZ9%209ZZ",
    ]) {
      const response = await get(path);
      expect(response.status).toBe(404);
      const body = JSON.parse(response.body.toString("utf8")) as Record<string, string>;
      expect(Object.keys(body)).toEqual(["status", "title", "description"]);
      expect([body.status, body.title]).toEqual(["404", "Not found"]);
      expect(body.description).not.toBe(error(404).description);
      expect(body.description).toMatch(/postcode is well formed but could not be placed/);
    }
  });
});
