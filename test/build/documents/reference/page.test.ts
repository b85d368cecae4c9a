/**
 * The API reference (/reference) as the build writes it for the sample content, plain and with the
 * live standard's paths: every operation of /openapi.json, each with its three samples, and an
 * answer cut from the body the build publishes. Then the page made from a small document, for
 * what the sample content does not hold (a PublicOrigin, a parameter's value).
 */
import { describe, expect, it } from "vitest";
import type { Manifest } from "../../../../contract/manifest.js";
import { objectAt, parseJson, type JsonObject } from "../../../helpers/json.js";
import { sampleBuild, type SampleVariant } from "../../../helpers/sample-build.js";
import { LIVE_STANDARD_PATHS, SPEC_PATHS } from "../../../helpers/spec-values.js";
import {
  shownOperations,
  untrueOf,
  untrueTextOf,
  type ShownOperation,
} from "../../../helpers/reference-page.js";
import { referencePage } from "../../../../build/documents/reference/page.js";
import {
  abbreviate,
  compactJson,
  examplesFor,
  type Example,
} from "../../../../build/documents/reference/examples.js";
import { DATASETS } from "../../../../build/core/datasets.js";
import type { NearIndex } from "../../../../contract/near.js";

async function built(variant: SampleVariant) {
  const sample = sampleBuild(variant);
  const manifest: Manifest = await sample.manifest();
  const openapi = objectAt(parseJson(await sample.read("openapi.json")), "");
  const html = await sample.read("reference.html");
  return { sample, manifest, openapi, html, shown: shownOperations(html) };
}

const operationsOf = (openapi: JsonObject) =>
  Object.entries(objectAt(openapi, "/paths")).flatMap(([path, item]) =>
    Object.keys(item as object).map((method) => `${method.toUpperCase()} ${path}`),
  );

describe.each(["plain", "live"] as const)("the reference of the sample (%s)", (variant) => {
  it("shows every operation of /openapi.json once, each data set's GET and HEAD among them", async () => {
    const { openapi, shown } = await built(variant);
    const listed = shown.map((o) => `${o.method} ${o.path}`);
    // Grouped by tag on the page: the same operations, each once.
    expect([...listed].sort()).toEqual(operationsOf(openapi).sort());
    const served = [
      ...Object.values(SPEC_PATHS),
      ...(variant === "live"
        ? Object.values(LIVE_STANDARD_PATHS)
            .flat()
            .map(([p]) => p)
        : []),
    ];
    for (const path of served) {
      expect(listed).toContain(`GET ${path}`);
      expect(listed).toContain(`HEAD ${path}`);
    }
  });

  it("gives every operation a curl, a JavaScript fetch and a Python urllib request of its path", async () => {
    const { shown } = await built(variant);
    for (const o of shown) {
      expect(Object.keys(o.samples)).toEqual(["curl", "javascript", "python"]);
      // The path as asked: each {parameter} filled in, the same in all three.
      const asked = /"\$ORIGIN(\/[^"]*)"/.exec(o.samples.curl!)?.[1];
      expect(asked, o.id).toMatch(new RegExp(`^${o.path.replace(/\{\w+\}/g, "[^/{}]+")}(\\?|$)`));
      expect(o.samples.curl).toContain(o.method === "HEAD" ? "curl -sI " : "curl -si ");
      expect(o.samples.javascript).toContain(`fetch(\`\${origin}${asked}\``);
      expect(o.samples.python).toContain(`urllib.request.Request(f"{origin}${asked}"`);
      if (o.method === "HEAD") {
        expect(o.samples.javascript).toContain('{ method: "HEAD" }');
        expect(o.samples.python).toContain('method="HEAD"');
      }
    }
  });

  it("shows as each data set's answer its published body, cut to the first of each list", async () => {
    const { sample, manifest, shown } = await built(variant);
    const byPath = new Map(shown.map((o) => [`${o.method} ${o.path}`, o]));
    for (const entry of manifest.datasets) {
      const o: ShownOperation = byPath.get(`GET ${entry.path}`)!;
      const body = parseJson(await sample.read(entry.variants.identity.asset.slice(1)));
      expect(o.answer.status).toBe(200);
      expect(o.answer.mediaType).toBe(entry.mediaType);
      expect(untrueOf(parseJson(o.answer.body), body), entry.path).toEqual([]);
      expect(o.answer.body).toContain(`"TotalResults": ${entry.totalResults}`);
      expect(byPath.get(`HEAD ${entry.path}`)!.answer).toEqual({
        status: 200,
        mediaType: entry.mediaType,
        body: "",
      });
    }
  });

  it("shows the participant directory entry and the feed as the build wrote them", async () => {
    const { sample, shown } = await built(variant);
    const directory = shown.find(
      (o) => o.method === "GET" && o.path === "/participant_store.json",
    )!;
    expect(directory.answer.mediaType).toBe("application/json");
    expect(
      untrueOf(
        parseJson(directory.answer.body),
        parseJson(await sample.read("participant_store.json")),
      ),
    ).toEqual([]);
    const feed = shown.find((o) => o.method === "GET" && o.path === "/x-std/changes.atom");
    if (feed) {
      expect(feed.answer.mediaType).toBe("application/atom+xml");
      expect(untrueTextOf(feed.answer.body, await sample.read("x-std/changes.atom"))).toEqual([]);
    }
  });

  it("links no stylesheet, script or image but its own stylesheet, and holds no inline style or script", async () => {
    const { html } = await built(variant);
    expect([...html.matchAll(/<(link|script|img|iframe|style)\b[^>]*>/g)].map((m) => m[0])).toEqual(
      ['<link rel="stylesheet" href="/style.css">', '<link rel="icon" href="data:,">'],
    );
    expect(html).not.toMatch(/\sstyle=|\son[a-z]+=/);
  });
});

describe("the reference made from a small document", () => {
  const openapi = {
    openapi: "3.1.0",
    info: { title: "A bank: open banking open data", version: "Open Data API v2.2" },
    tags: [{ name: "Things", description: "Every **thing**, and `more`." }],
    paths: {
      "/x/{id}": {
        get: {
          operationId: "getX",
          summary: "Get a thing",
          tags: ["Things"],
          parameters: [
            {
              name: "id",
              in: "path",
              required: true,
              description: "Which one.",
              schema: { type: "string", pattern: "^[a-z]+$" },
            },
          ],
          responses: { "200": { description: "The thing." } },
        },
      },
    },
  };
  const examples = new Map<string, Example>([
    [
      "/x/{id}",
      {
        url: "/x/abc",
        values: { id: "abc" },
        answer: { status: 200, mediaType: "application/json", shown: '{"a": 1}' },
      },
    ],
  ]);

  it("writes site.yaml's PublicOrigin into every sample and reads no ORIGIN", () => {
    const html = referencePage({
      openapi,
      examples,
      origin: "https://api.bank.example",
      openapiPath: "/openapi.json",
    });
    const [o] = shownOperations(html);
    expect(o!.samples).toEqual({
      curl: 'curl -si "https://api.bank.example/x/abc"',
      javascript: [
        'const origin = "https://api.bank.example";',
        "const response = await fetch(`${origin}/x/abc`);",
        'console.log(response.status, response.headers.get("Content-Type"));',
        "console.log(JSON.stringify(await response.json(), null, 2));",
      ].join("\n"),
      python: [
        "import json, urllib.request",
        "",
        'origin = "https://api.bank.example"',
        'request = urllib.request.Request(f"{origin}/x/abc")',
        "with urllib.request.urlopen(request) as response:",
        '    print(response.status, response.headers["Content-Type"])',
        "    print(json.dumps(json.load(response), indent=2))",
      ].join("\n"),
    });
    expect(html).not.toContain("ORIGIN");
  });

  it("without a PublicOrigin, has each sample stop before it sends anything unless ORIGIN is set", () => {
    const html = referencePage({
      openapi,
      examples,
      origin: undefined,
      openapiPath: "/openapi.json",
    });
    const [o] = shownOperations(html);
    expect(o!.samples.curl).toBe(
      ': "${ORIGIN:?first set ORIGIN to the origin of this page, https:// and its host}"\n' +
        'curl -si "$ORIGIN/x/abc"',
    );
    expect(o!.samples.javascript).toContain(
      'const origin = process.env.ORIGIN;\nif (!origin) throw new Error("first set ORIGIN to the origin of this page, https:// and its host");',
    );
    expect(o!.samples.python).toContain('origin = os.environ["ORIGIN"]');
  });

  it("says which value the sample sends for a parameter, and renders the descriptions' Markdown", () => {
    const html = referencePage({
      openapi,
      examples,
      origin: undefined,
      openapiPath: "/openapi.json",
    });
    expect(html).toContain("Which one. The sample sends <code>abc</code>.");
    expect(html).toContain("string, matching <code>^[a-z]+$</code>");
    expect(html).toContain("<p>Every <strong>thing</strong>, and <code>more</code>.</p>");
  });

  it("fails on an operation it has no example of", () => {
    expect(() =>
      referencePage({ openapi, examples: new Map(), origin: undefined, openapiPath: "/o" }),
    ).toThrow("no example of /x/{id}");
  });
});

describe("an answer as the reference shows it", () => {
  it("keeps each list's first item and marks the rest with one …", () => {
    expect(abbreviate({ a: [1, 2, 3], b: [], c: [[4, 5]], d: ["x"] })).toEqual({
      a: [1, "…"],
      b: [],
      c: [[4, "…"]],
      d: ["x"],
    });
  });

  it("cuts a text longer than 80 characters to its first 79 and …", () => {
    expect(abbreviate("a".repeat(80))).toBe("a".repeat(80));
    expect(abbreviate("b".repeat(81))).toBe(`${"b".repeat(79)}…`);
  });

  it("writes a list or object of up to 64 characters on one line, and indents the others by two spaces", () => {
    expect(compactJson({ short: [1, 2], text: "a [ b" })).toBe(
      '{"short": [1, 2], "text": "a [ b"}',
    );
    expect(compactJson({ long: "x".repeat(60), n: 1 })).toBe(
      `{\n  "long": "${"x".repeat(60)}",\n  "n": 1\n}`,
    );
  });
});

describe("the examples of a data set with no records", () => {
  // An ATMs body with no record, and its index: every list empty.
  const body = Buffer.from(
    '{"meta":{"LastUpdated":"2026-11-01T00:00:00Z","TotalResults":0},"data":[]}',
  );
  const head = body.indexOf('"TotalResults":') + '"TotalResults":'.length;
  const index: NearIndex = {
    formatVersion: 1,
    dataset: "atms",
    body: { asset: "/std/v2.2/atms.json", etag: "0".repeat(64), length: body.length },
    head: [0, head],
    metaTail: [head + 1, body.indexOf('"data":') + '"data":'.length],
    brands: [],
    records: [],
    located: [],
    country: {},
    town: {},
    sortcode: {},
    segment: {},
    postcodes: { unit: {}, sector: {}, district: {} },
  };
  const atms = DATASETS.find((d) => d.id === "atms")!;
  const entry = {
    dataset: "atms",
    path: "/std/v2.2/atms",
    mediaType: "application/prs.std.opendata.v2.2+json",
    aliases: [],
  } as unknown as Manifest["datasets"][number];
  const examples = examplesFor(
    [
      "/std/v2.2/atms",
      "/x-std/v2.2/atms/country/{country}",
      "/x-std/v2.2/atms/geo-location/lat/{latitude}/long/{longitude}",
      "/x-std/v2.2/atms/postcode/{postcode}",
    ],
    {
      datasets: [{ dataset: atms, entry, body }],
      near: new Map([["atms", { index, segments: [] }]]),
      changes: [],
      answers: new Map(),
      documents: new Map(),
    },
  );

  it("asks for a well-formed value and shows the empty answer the Worker gives", () => {
    expect(examples.get("/x-std/v2.2/atms/country/{country}")).toEqual({
      url: "/x-std/v2.2/atms/country/GB",
      values: { country: "GB" },
      answer: {
        status: 200,
        mediaType: "application/prs.std.opendata.v2.2+json",
        shown:
          '{\n  "meta": {"LastUpdated": "2026-11-01T00:00:00Z", "TotalResults": 0},\n  "data": []\n}',
      },
    });
    expect(examples.get("/x-std/v2.2/atms/geo-location/lat/{latitude}/long/{longitude}")!.url).toBe(
      "/x-std/v2.2/atms/geo-location/lat/51.5074/long/-0.1278",
    );
    expect(examples.get("/std/v2.2/atms")!.answer.shown).toBe(
      '{\n  "meta": {"LastUpdated": "2026-11-01T00:00:00Z", "TotalResults": 0},\n  "data": []\n}',
    );
  });

  it("shows a postcode no record places as the 404 with the specs' error body", () => {
    expect(examples.get("/x-std/v2.2/atms/postcode/{postcode}")!.answer).toEqual({
      status: 404,
      mediaType: "application/json",
      shown: compactJson({
        status: "404",
        title: "Not found",
        description: "There is no resource at this path.",
      }),
    });
  });
});
