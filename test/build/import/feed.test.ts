/** `npm run import` of a URL, against a server this test starts on 127.0.0.1 (and nothing else). */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readFile, writeFile } from "node:fs/promises";
import { gzipSync } from "node:zlib";
import fc from "fast-check";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { decodeFeed } from "../../../build/import/feed.js";
import { ImportError } from "../../../build/import/errors.js";
import { parseYaml } from "../../../build/read/yaml-source.js";
import { digestFolder, sampleFixture, type Fixture } from "../../helpers/fixtures.js";
import { atm, envelopeOf, importFeeds } from "../../helpers/import.js";

const FEED = envelopeOf([{ BrandName: "Fernbrook Bank", ATM: [atm("FB-1", "Ashcombe")] }]);

/** What the server answers per path: status, Content-Type, body; or "stall" to never answer. */
const ANSWERS: Record<string, [number, string, string] | "stall"> = {
  "/open-banking/v2.2/atms": [
    200,
    "application/prs.openbanking.opendata.v2.2+json",
    JSON.stringify(FEED),
  ],
  "/gone": [404, "application/json", '{"status":"404"}'],
  "/html": [200, "text/html; charset=utf-8", "<!doctype html><title>Maintenance</title>"],
  "/stall": "stall",
};

let server: Server;
let base: string;
const seen: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.headers);
    const answer = ANSWERS[req.url ?? ""];
    if (answer === "stall") return; // never answers: the client's timeout must end it
    const [status, type, body] = answer ?? [404, "text/plain", "not here"];
    res.writeHead(status, { "Content-Type": type }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

let fixture: Fixture;
afterEach(async () => {
  seen.length = 0;
  await fixture?.cleanup();
});

describe("importing from a URL", () => {
  it("fetches the feed, asks for the data set's media types, and records the URL in the file", async () => {
    fixture = await sampleFixture();
    const run = await importFeeds(
      ["--dataset", "atms", `${base}/open-banking/v2.2/atms`],
      fixture.root,
    );
    expect(run.stderr).toEqual([]);
    expect(run.code).toBe(0);
    expect(seen.map((h) => h.accept)).toEqual([
      "application/prs.std.opendata.v2.2+json, application/prs.openbanking.opendata.v2.2+json, application/json;q=0.5",
    ]);
    const text = await readFile(join(fixture.content, "atms/fernbrook-bank.yaml"), "utf8");
    expect(text.split("\n")[1]).toBe(
      `# Imported by npm run import from ${base}/open-banking/v2.2/atms at 2026-11-22T09:30:00Z.`,
    );
    expect(parseYaml("f", text).value).toEqual(FEED.data[0]!.Brand[0]);
  });

  it("asks for both APIs' media types when the data set is not given", async () => {
    fixture = await sampleFixture();
    await importFeeds([`${base}/open-banking/v2.2/atms`], fixture.root);
    expect(seen.map((h) => h.accept)).toEqual([
      "application/prs.std.opendata.v2.2+json, application/prs.openbanking.opendata.v2.2+json, application/prs.std.opendata.v1.0+json, application/prs.openbanking.opendata.v1.0+json, application/json;q=0.5",
    ]);
  });

  it("sends a user name and password in the URL as Basic credentials, and records the URL without them", async () => {
    fixture = await sampleFixture();
    const url = `${base}/open-banking/v2.2/atms`.replace("http://", "http://reader:s3cret@");
    const run = await importFeeds([url], fixture.root);
    const text = await readFile(join(fixture.content, "atms/fernbrook-bank.yaml"), "utf8");
    expect(text).not.toContain("s3cret");
    expect(run.stdout.join("\n")).not.toContain("s3cret");
    // RFC 7617 section 2: base64 of "reader:s3cret".
    expect(seen.map((h) => h.authorization)).toEqual(["Basic cmVhZGVyOnMzY3JldA=="]);
  });

  const failures: [string, string, string[], string][] = [
    ["a status other than 200", "/gone", [], "answered 404 Not Found, not 200 with the feed"],
    [
      "a body that is not JSON",
      "/html",
      [],
      "(Content-Type: text/html; charset=utf-8) is not JSON: ",
    ],
    [
      "no answer within the timeout",
      "/stall",
      // The server never answers: the shortest timeout ends it as surely as a long one.
      ["--timeout", "0.1"],
      "did not answer in full within 0.1 s",
    ],
  ];

  it.each(failures)(
    "refuses %s, naming the URL, and writes nothing",
    async (_, path, args, message) => {
      fixture = await sampleFixture();
      const before = await digestFolder(fixture.content);
      const run = await importFeeds([...args, `${base}${path}`], fixture.root);
      expect(run.code).toBe(1);
      expect(run.stderr).toHaveLength(1);
      expect(run.stderr[0]).toContain(`import: ${base}${path}`);
      expect(run.stderr[0]).toContain(message);
      expect(await digestFolder(fixture.content)).toEqual(before);
    },
  );

  it("refuses a URL that is not http or https", async () => {
    fixture = await sampleFixture();
    const run = await importFeeds(["ftp://127.0.0.1/atms.json"], fixture.root);
    expect(run.stderr).toEqual([
      "import: ftp://127.0.0.1/atms.json: only http and https URLs can be fetched; give a file by its path",
    ]);
  });
});

describe("reading a saved feed", () => {
  it("reads a file saved gzipped (curl -o without --compressed) as the feed inside", async () => {
    fixture = await sampleFixture();
    const feed = join(fixture.root, "atms.json");
    await writeFile(feed, gzipSync(JSON.stringify(FEED)));
    const run = await importFeeds(["atms.json"], fixture.root);
    expect(run.stderr).toEqual([]);
    expect(run.code).toBe(0);
    const written = await readFile(join(fixture.content, "atms", "fernbrook-bank.yaml"), "utf8");
    expect(parseYaml("f", written).value).toEqual(FEED.data[0]!.Brand[0]);
  });

  it("names a gzip file that does not decompress", async () => {
    fixture = await sampleFixture();
    await writeFile(join(fixture.root, "atms.json"), gzipSync("{}").subarray(0, 12));
    const run = await importFeeds(["atms.json"], fixture.root);
    expect(run.code).toBe(1);
    expect(run.stderr).toEqual([
      "import: atms.json is gzip but does not decompress: unexpected end of file",
    ]);
  });
});

describe("reading a feed's bytes", () => {
  const TEXT = '{"data": [{"Brand": [{"BrandName": "£ Bank"}]}]}';

  it("reads UTF-8, with or without a byte-order mark", () => {
    expect(decodeFeed(Buffer.from(TEXT), "f", null)).toBe(TEXT);
    expect(decodeFeed(Buffer.from(`\uFEFF${TEXT}`), "f", null)).toBe(TEXT);
  });

  it("reads UTF-16 that starts with its byte-order mark, in either byte order", () => {
    const little = Buffer.from(`\uFEFF${TEXT}`, "utf16le");
    expect(decodeFeed(little, "f", null)).toBe(TEXT);
    const big = Buffer.from(little).swap16();
    expect(big.subarray(0, 2)).toEqual(Buffer.from([0xfe, 0xff]));
    expect(decodeFeed(big, "f", null)).toBe(TEXT);
  });

  it("gives back any text written as UTF-8, and for any bytes either their text or an import error", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (text) => {
        expect(decodeFeed(Buffer.from(text, "utf8"), "f", null)).toBe(text.replace(/^\uFEFF/, ""));
      }),
      { seed: 20261128, numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        // A UTF-16 byte-order mark says the bytes are UTF-16 (the test above).
        const utf16 =
          (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
        fc.pre(!utf16);
        let strict: string | undefined;
        try {
          strict = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
        } catch {
          strict = undefined;
        }
        if (strict !== undefined) expect(decodeFeed(bytes, "f", null)).toBe(strict);
        else expect(() => decodeFeed(bytes, "f", null)).toThrow(ImportError);
      }),
      { seed: 20261128, numRuns: 2000 },
    );
  });

  it("reads the charset a server names in Content-Type", () => {
    const latin = Buffer.from(TEXT, "latin1");
    expect(latin).toHaveLength(Buffer.byteLength(TEXT) - 1);
    expect(decodeFeed(latin, "u", "application/json; charset=ISO-8859-1")).toBe(TEXT);
    expect(decodeFeed(Buffer.from(TEXT), "u", "application/json; charset=utf-8")).toBe(TEXT);
  });

  it("refuses bytes that are not UTF-8, naming the first and where it is, instead of replacing them", () => {
    // Windows-1252 writes £ as the one byte 0xA3, which UTF-8 never starts a character with.
    const latin = Buffer.from('{\n  "Fee": "£5"\n}', "latin1");
    expect(() => decodeFeed(latin, "f.json", "application/json")).toThrow(
      new ImportError(
        "f.json (Content-Type: application/json) is not UTF-8: byte 0xA3 at line 2, column 11, " +
          'after "{\\n  \\"Fee\\": \\"". JSON feeds are UTF-8 (RFC 8259); if this one is ' +
          "Windows-1252, convert it first: iconv -f WINDOWS-1252 -t UTF-8 feed.json > feed-utf8.json",
      ),
    );
    // A character cut short at the end: its first byte is the one named.
    const cut = Buffer.from('["é"]').subarray(0, 3);
    expect(() => decodeFeed(cut, "f", null)).toThrow(/byte 0xC3 at line 1, column 3/);
  });
});
