/**
 * A near-me answer inside workerd: its ETag, and whole requests through handle() over the
 * two-ATM data set of test/worker/support/near-fixture.ts, whose answers' exact bytes are stated
 * literally.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Manifest } from "../../../contract/manifest.js";
import type { Deps } from "../../../worker/deps.js";
import { handle } from "../../../worker/handler.js";
import { nearDeps, nearEntityTag } from "../../../worker/near/answer.js";
import { DECIDED, specErrorBody } from "../../helpers/spec-values.js";
import { makeWorker, ORIGIN, type Fixture } from "../support/fixture.js";
import {
  A,
  B,
  BRAND_HEAD,
  BRAND_TAIL,
  makeNearFixture,
  META_HEAD,
  META_TAIL,
} from "../support/near-fixture.js";

let fixture: Fixture;
let manifest: Manifest;
beforeAll(async () => {
  fixture = await makeNearFixture();
  manifest = fixture.manifest;
});

describe("the ETag of a filtered answer", () => {
  const geo = { filter: "geo-location", latitude: 51.5, longitude: -0.1, radius: 2 } as const;
  it("is strong and holds only characters an entity tag allows (RFC 9110 section 8.8.3)", () => {
    const tag = nearEntityTag('"abc"', { filter: "country", country: "GB", town: "stainby cross" });
    expect(tag).toMatch(/^"[\x21\x23-\x7e]+"$/);
  });
  it("changes with the index and with the question, and only with them", () => {
    expect(nearEntityTag('"one"', geo)).toBe(nearEntityTag('"one"', { ...geo }));
    expect(nearEntityTag('"one"', geo)).not.toBe(nearEntityTag('"two"', geo));
    expect(nearEntityTag('"one"', geo)).not.toBe(nearEntityTag('"one"', { ...geo, radius: 3 }));
  });
});

describe("whole requests to an extension path", () => {
  const make = () => {
    const worker = makeWorker(fixture);
    const deps: Deps = { ...worker.deps, near: nearDeps(manifest) };
    const fetch = (path: string, init?: RequestInit) =>
      handle(new Request(new URL(path, ORIGIN), init), deps);
    return { worker, fetch };
  };
  const geo = "/x-std/v2.2/atms/geo-location/lat/54.1/long/-1.7";

  it("answers with the published bytes of the records within the radius, nearest first", async () => {
    const { fetch } = make();
    const one = await fetch(geo);
    expect(one.status).toBe(200);
    expect(await one.text()).toBe(
      `${META_HEAD}1${META_TAIL}[{"Brand":[${BRAND_HEAD}${A}${BRAND_TAIL}]}]}`,
    );
    // From B's position with 10 miles, B is nearer than A.
    const both = await fetch("/x-std/v2.2/atms/geo-location/lat/54.15/long/-1.7?radius=10");
    expect(await both.text()).toBe(
      `${META_HEAD}2${META_TAIL}[{"Brand":[${BRAND_HEAD}${B},${A}${BRAND_TAIL}]}]}`,
    );
  });

  it("answers an empty list as the envelope with no data", async () => {
    const { fetch } = make();
    const none = await fetch("/x-std/v2.2/atms/country/FR");
    expect(none.status).toBe(200);
    expect(await none.text()).toBe(`${META_HEAD}0${META_TAIL}[]}`);
  });

  it("places a postcode by its unit, else its district, and answers 404 where nothing places it", async () => {
    const { fetch } = make();
    const unit = await fetch("/x-std/v2.2/atms/postcode/WX14AB");
    expect((await unit.json<{ meta: { TotalResults: number } }>()).meta.TotalResults).toBe(2);
    const district = await fetch("/x-std/v2.2/atms/postcode/LQ79ZZ");
    expect(district.status).toBe(200);
    const unknown = await fetch("/x-std/v2.2/atms/postcode/ZZ99ZZ");
    expect(unknown.status).toBe(404);
    // The 404 body's shape and title, with words of its own: not a wrong path's.
    const body = await unknown.json<Record<string, string>>();
    expect(body).not.toEqual(specErrorBody(404));
    expect(Object.keys(body)).toEqual(["status", "title", "description"]);
    expect(body.status).toBe("404");
    expect(body.title).toBe("Not found");
    expect(body.description).toMatch(/^The postcode is well formed but could not be placed/);
  });

  it("reads the index and body once per isolate", async () => {
    const { fetch, worker } = make();
    await fetch(geo);
    await fetch("/x-std/v2.2/atms/country/GB");
    expect(worker.assets.requests.map((r) => new URL(r.url).pathname)).toEqual([
      "/_near/atms.json",
      "/std/v2.2/atms.json",
    ]);
  });

  it("answers a bad parameter and a 304 without reading any file", async () => {
    const { fetch, worker } = make();
    const bad = await fetch("/x-std/v2.2/atms/geo-location/lat/91/long/0");
    expect(bad.status).toBe(400);
    // The spec's body, word for word; what was wrong is in a field beside it.
    expect(await bad.json()).toEqual(specErrorBody(400));
    expect(bad.headers.get("Invalid-Parameter")).toMatch(/^"lat";expected="[^"]*-90 to 90[^"]*"$/);
    const etag = nearEntityTag('"index-of-atms"', {
      filter: "geo-location",
      latitude: 54.1,
      longitude: -1.7,
      radius: 1,
    });
    const fresh = await fetch(geo, { headers: { "If-None-Match": etag } });
    expect(fresh.status).toBe(304);
    expect(fresh.headers.get("ETag")).toBe(etag);
    expect(worker.assets.requests).toEqual([]);
  });

  it("answers 405 to other methods and 503 in maintenance, as the standard paths do", async () => {
    const { fetch } = make();
    const post = await fetch(geo, { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("Allow")).toBe(DECIDED.allow);
    const worker = makeWorker(fixture, { vars: { MAINTENANCE: "on" } });
    const deps: Deps = { ...worker.deps, near: nearDeps(manifest) };
    const closed = await handle(new Request(ORIGIN + geo), deps);
    expect(closed.status).toBe(503);
  });

  it("answers 503 with Retry-After when the assets binding fails, and 500 when a file is missing", async () => {
    const failing = make();
    failing.worker.assets.failure = "throw";
    const unavailable = await failing.fetch(geo);
    expect(unavailable.status).toBe(503);
    expect(unavailable.headers.get("Retry-After")).toBe(String(DECIDED.assetsRetryAfterSeconds));
    // A failed read is not kept: the next request reads again and succeeds.
    failing.worker.assets.failure = "none";
    expect((await failing.fetch(geo)).status).toBe(200);
    const missing = make();
    missing.worker.assets.failure = "missing";
    expect((await missing.fetch(geo)).status).toBe(500);
  });
});
