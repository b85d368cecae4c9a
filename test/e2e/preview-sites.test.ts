/**
 * The live preview (npm start's code path) with site.yaml's Sites (issue 46, item 5): over plain
 * http, with no redirect, a request whose Host is a site's host gets that site, and so does
 * `<Name>.localhost` (RFC 6761 section 6.3: loopback); the default address lists the sites with
 * links; a save rebuilds the sites that publish the brand it touched; and no save is lost
 * (issue 51, item 2): saves in a row, 1.5 s apart and close together, are each served at every
 * host that publishes the brand saved.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScratchPreview, type ScratchPreview } from "../helpers/preview.js";
import { arrayAt, parseJson, stringAt } from "../helpers/json.js";
import { newClients, request, type RawResponse } from "./http.js";
import {
  driveSaves,
  SAMPLE_SITES_YAML as SITE_YAML,
  type SaveServed,
} from "../../bench/preview-saves.js";

let scratch: ScratchPreview;
let base: URL;

beforeAll(async () => {
  scratch = await startScratchPreview(undefined, { "site.yaml": SITE_YAML });
  base = scratch.preview.url;
}, 120_000);

afterAll(async () => {
  await scratch?.dispose();
}, 60_000);

const fresh = newClients("198.20");
const get = (host: string, path: string): Promise<RawResponse> =>
  request(new URL(path, base), { headers: { Host: host, ...fresh() } });

const brandsOf = (response: RawResponse): string[] =>
  arrayAt(parseJson(response.body), "/data/0/Brand").map((b) => stringAt(b, "/BrandName"));

describe("the live preview with a site per brand and a group site", () => {
  it("lists the sites with their preview addresses at the default address", async () => {
    const page = await get(`127.0.0.1:${base.port}`, "/");
    expect(page.status).toBe(200);
    const text = page.body.toString("utf8");
    const links = [...text.matchAll(/<a href="([^"]+)"/g)].map((m) => m[1]);
    expect(links).toEqual([
      `http://thistlecombe.localhost:${base.port}/`,
      `http://pennyfold.localhost:${base.port}/`,
      `http://group.localhost:${base.port}/`,
    ]);
    // Each with the host it answers when deployed, and how to ask the preview as that host.
    expect(text).toContain(
      `curl -H 'Host: api.pennyfold.example' http://127.0.0.1:${base.port}/std/v2.2/branches`,
    );
  });

  it.each([
    ["its host", "api.pennyfold.example"],
    ["its host with a port", "api.pennyfold.example:8787"],
    ["<Name>.localhost", "pennyfold.localhost"],
  ])("answers a site at %s over plain http, with no redirect", async (_, host) => {
    const response = await get(host, "/std/v2.2/atms");
    expect(response.status).toBe(200);
    expect(brandsOf(response)).toEqual(["Pennyfold Building Society"]);
  });

  it("rebuilds on a save the sites that publish the brand it touched, and no other", async () => {
    const path = "/std/v2.2/atms";
    const etags = async () => ({
      thistlecombe: (await get("thistlecombe.localhost", path)).headers.etag,
      pennyfold: (await get("pennyfold.localhost", path)).headers.etag,
      group: (await get("group.localhost", path)).headers.etag,
    });
    const before = await etags();
    const file = join(scratch.content.content, "atms", "pennyfold-building-society.yaml");
    const text = await readFile(file, "utf8");
    await writeFile(
      file,
      text.replace('Identification: "PBS-ATM-0101"', 'Identification: "PBS-ATM-0199"'),
    );
    let after = before;
    for (let i = 0; i < 300 && after.pennyfold === before.pennyfold; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      after = await etags();
    }
    expect({
      thistlecombe: after.thistlecombe === before.thistlecombe,
      pennyfold: after.pennyfold === before.pennyfold,
      group: after.group === before.group,
    }).toEqual({ thistlecombe: true, pennyfold: false, group: false });
  });
});

describe("the live preview with Sites, saves in a row", () => {
  // Each save goes round the two brands' ATM files; each is asked for at its site's host, its
  // site's <Name>.localhost and the group's host, all of which publish it.
  const files = () => [
    {
      file: join(scratch.content.content, "atms", "pennyfold-building-society.yaml"),
      tag: "pbs",
      hosts: [
        "api.pennyfold.example",
        "pennyfold.localhost",
        "opendata.thistlecombe-group.example",
      ],
    },
    {
      file: join(scratch.content.content, "atms", "thistlecombe-bank", "north.yaml"),
      tag: "tb",
      hosts: ["api.thistlecombe.example", "thistlecombe.localhost", "group.localhost"],
    },
  ];
  // The hosts that never served a save (none, when every save is served at every host).
  const unserved = (results: readonly SaveServed[]) =>
    results.flatMap(({ save, servedMs }) =>
      [...servedMs].filter(([, ms]) => ms === undefined).map(([host]) => `save ${save} at ${host}`),
    );

  it("serves each of 7 saves 1.5 s apart at every host that publishes the brand saved", async () => {
    const results = await driveSaves({
      base,
      files: files(),
      path: "/std/v2.2/atms",
      saves: 7,
      apartMs: 1500,
      // A bound on a wait for what takes well under a second, not a measure of it.
      timeoutMs: 12_000,
    });
    expect(results.map(({ servedMs }) => servedMs.size)).toEqual([3, 3, 3, 3, 3, 3, 3]);
    expect(unserved(results)).toEqual([]);
  }, 60_000);

  it("serves each of 12 saves 100 ms apart, or a later one, at every host that publishes the brand saved", async () => {
    const results = await driveSaves({
      base,
      files: files(),
      path: "/std/v2.2/atms",
      saves: 12,
      apartMs: 100,
      timeoutMs: 12_000,
    });
    expect(results).toHaveLength(12);
    expect(unserved(results)).toEqual([]);
  }, 60_000);
});
