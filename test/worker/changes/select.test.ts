/**
 * The changes endpoints' selection (worker/changes/select.ts) as a table: the query of a request
 * to 400, 410 or the stored answer to serve, from a manifest written out here.
 */
import { describe, expect, it } from "vitest";
import type { ChangesEntry, Manifest } from "../../../contract/manifest.js";
import { changesRoutes, selectChanges } from "../../../worker/changes/select.js";

const hex = (c: string) => c.repeat(64);
const variants = (c: string) => ({
  identity: { asset: `/_changes/atms/${c}.json`, etag: `"${hex(c)}"`, length: 10 },
  br: { asset: `/_changes/atms/${c}.json.br`, etag: `"${hex(c)}"`, length: 8 },
});
const entry: ChangesEntry = {
  dataset: "atms",
  path: "/x-std/v2.2/atms/changes",
  mediaType: "application/prs.std.opendata.v2.2+json",
  aliases: [
    {
      path: "/x-open-banking/v2.2/atms/changes",
      mediaType: "application/prs.openbanking.opendata.v2.2+json",
    },
  ],
  plan: "open-data",
  lastModified: "Sat, 21 Nov 2026 10:00:00 GMT",
  lastModifiedMs: Date.UTC(2026, 10, 21, 10),
  answers: [
    {
      since: "2026-11-21T10:00:00Z",
      totalResults: 0,
      variants: variants("a"),
      tokens: ["2026-11-21T10:00:00Z", hex("1")],
    },
    {
      since: "2026-11-20T09:30:00Z",
      totalResults: 3,
      variants: variants("b"),
      tokens: ["2026-11-20T09:30:00Z", hex("2"), hex("3"), hex("4")],
    },
  ],
};
const manifest = {
  formatVersion: 1,
  datasets: [],
  documents: [],
  changes: [entry],
} as unknown as Manifest;
const routes = changesRoutes(manifest);
const route = routes.get("/x-std/v2.2/atms/changes")!;
const select = (query: string) => selectChanges(route, new URLSearchParams(query));

describe("the changes paths", () => {
  it("are the data set's under /x-std/v2.2/ and its alias's, each with its own media type and the data set's plan", () => {
    expect([...routes.keys()]).toEqual([
      "/x-std/v2.2/atms/changes",
      "/x-open-banking/v2.2/atms/changes",
    ]);
    expect(routes.get("/x-open-banking/v2.2/atms/changes")!.mediaType).toBe(
      "application/prs.openbanking.opendata.v2.2+json",
    );
    expect(route.plan).toBe("open-data");
  });

  it("refuse a manifest whose answer lists a path twice", () => {
    const twice = { ...manifest, changes: [entry, entry] } as Manifest;
    expect(() => changesRoutes(twice)).toThrow(/listed twice/);
  });
});

describe("a changes request's query", () => {
  describe("answers 400 when it cannot be understood", () => {
    it.each([
      ["no query", "", "since"],
      ["since empty", "since=", "since"],
      ["since without a value", "since", "since"],
      ["since given twice", "since=2026-11-20T09:30:00Z&since=2026-11-20T09:30:00Z", "since"],
      ["another parameter beside since", "since=2026-11-20T09:30:00Z&radius=2", "radius"],
      ["another parameter alone", "from=2026-11-20T09:30:00Z", "from"],
      ["a parameter named in another case", "Since=2026-11-20T09:30:00Z", "Since"],
      ["milliseconds", "since=2026-11-20T09:30:00.000Z", "since"],
      ["an offset instead of Z", "since=2026-11-20T09:30:00%2B00:00", "since"],
      ["a date alone", "since=2026-11-20", "since"],
      ["a month 13", "since=2026-13-20T09:30:00Z", "since"],
      ["an hour 24", "since=2026-11-20T24:00:00Z", "since"],
      ["an ETag in quotes", `since=%22${hex("2")}%22`, "since"],
      ["a weak ETag", `since=W/%22${hex("2")}%22`, "since"],
      ["upper-case hex", `since=${hex("A")}`, "since"],
      ["63 hex digits", `since=${hex("2").slice(1)}`, "since"],
    ])("%s, naming the parameter at fault", (_, query, parameter) => {
      const selected = select(query);
      expect(selected.status).toBe(400);
      const problem = selected.status === 400 ? selected.problem : undefined;
      expect(problem?.parameter).toBe(parameter);
      // The form wanted: since's, or none at all for a parameter the path does not take.
      expect(problem?.form).toMatch(
        parameter === "since" ? /UTC with whole seconds and Z.*without its quotes/ : /leave it out/,
      );
    });
  });

  describe("answers 410 when it is well formed but names no version kept", () => {
    it.each([
      ["an older LastUpdated", "since=2020-01-01T00:00:00Z"],
      ["a LastUpdated between two versions", "since=2026-11-20T12:00:00Z"],
      ["an unknown ETag", `since=${hex("9")}`],
    ])("%s", (_, query) => {
      expect(select(query)).toEqual({ status: 410 });
    });
  });

  describe("answers the stored answer its token names", () => {
    it.each([
      ["the current LastUpdated", "since=2026-11-21T10:00:00Z", "a"],
      ["the current body's ETag", `since=${hex("1")}`, "a"],
      ["a kept version's LastUpdated", "since=2026-11-20T09:30:00Z", "b"],
      ["its identity ETag", `since=${hex("2")}`, "b"],
      ["its brotli ETag", `since=${hex("3")}`, "b"],
      ["its gzip ETag", `since=${hex("4")}`, "b"],
      ["a LastUpdated with its colons escaped", "since=2026-11-20T09%3A30%3A00Z", "b"],
    ])("%s", (_, query, answer) => {
      const selected = select(query);
      expect(selected.status).toBe(200);
      if (selected.status !== 200) return;
      expect(selected.file.variants.identity.asset).toBe(`/_changes/atms/${answer}.json`);
      expect(selected.file.path).toBe("/x-std/v2.2/atms/changes");
      expect(selected.file.mediaType).toBe("application/prs.std.opendata.v2.2+json");
      expect(selected.file.lastModified).toBe("Sat, 21 Nov 2026 10:00:00 GMT");
    });
  });

  it("answers under the alias with the alias's media type", () => {
    const alias = routes.get("/x-open-banking/v2.2/atms/changes")!;
    const selected = selectChanges(alias, new URLSearchParams("since=2026-11-20T09:30:00Z"));
    expect(selected.status === 200 && selected.file.mediaType).toBe(
      "application/prs.openbanking.opendata.v2.2+json",
    );
  });
});
