/**
 * verify against the live preview: which base URLs it asks for the preview's publication, what
 * it takes as one, and how a path the preview replaced is then expected. Tables over literal
 * values; the run against a real preview is test/e2e/verify-preview.test.ts.
 */
import { describe, expect, it } from "vitest";
import type { PathCheck } from "../../../build/verify/checks.js";
import {
  asPreviewServes,
  asPublication,
  isLoopback,
  previewPublication,
} from "../../../build/verify/preview.js";

const DATE = "Mon, 21 Sep 2026 14:13:20 GMT";
const BUILT = `"${"a".repeat(64)}"`;
const SERVED = `"${"b".repeat(64)}"`;
const OTHER = `"${"c".repeat(64)}"`;

function check(path: string, etag: string): PathCheck {
  return {
    path,
    what: "document",
    expected: {
      status: 200,
      etag: { exact: etag },
      lastModified: DATE,
      sha256: etag.replaceAll('"', ""),
    },
  };
}

describe("only a base URL on this machine can be the live preview", () => {
  it.each([
    ["http://127.0.0.1:8787", true],
    ["http://127.0.0.2:8787", true],
    ["http://localhost:8787/", true],
    ["http://[::1]:8787", true],
    ["https://opendata.example.com", false],
    ["http://127.0.0.1.example.com", false],
    ["http://192.168.1.10:8787", false],
    ["http://[::2]:8787", false],
  ])("%s: %s", (url, expected) => {
    expect(isLoopback(new URL(url))).toBe(expected);
  });

  it("asks nothing of a deployment that is not on loopback, whatever it would answer", async () => {
    const asked: string[] = [];
    const fake = ((input: URL) => {
      asked.push(input.href);
      return Promise.resolve(Response.json({ replaced: [] }));
    }) as typeof fetch;
    const options = { fetch: fake, timeoutMs: 1000 };
    expect(await previewPublication(new URL("https://opendata.example.com"), options)).toBe(
      undefined,
    );
    expect(asked).toEqual([]);
    expect(await previewPublication(new URL("http://127.0.0.1:8787"), options)).toEqual({
      replaced: [],
    });
    expect(asked).toEqual(["http://127.0.0.1:8787/_preview/publication.json"]);
  });

  it("takes a 404 (a deployed build's Worker on loopback) as no preview", async () => {
    const fake = (() => Promise.resolve(new Response("no", { status: 404 }))) as typeof fetch;
    expect(
      await previewPublication(new URL("http://127.0.0.1:8787"), { fetch: fake, timeoutMs: 1000 }),
    ).toBe(undefined);
  });
});

describe("what counts as the preview's publication", () => {
  it.each([
    ["no paths replaced", { replaced: [] }, true],
    [
      "the landing page replaced",
      { replaced: [{ path: "/", built: BUILT, served: SERVED }] },
      true,
    ],
    ["no list", {}, false],
    ["null", null, false],
    ["a tag unquoted", { replaced: [{ path: "/", built: "a".repeat(64), served: SERVED }] }, false],
    ["a weak tag", { replaced: [{ path: "/", built: BUILT, served: `W/${SERVED}` }] }, false],
    ["no path", { replaced: [{ built: BUILT, served: SERVED }] }, false],
  ])("%s: %s", (_, value, valid) => {
    expect(asPublication(value) !== undefined).toBe(valid);
  });
});

describe("a path the preview replaced", () => {
  const checks = [check("/std/v2.2/atms", BUILT), check("/", BUILT), check("/style.css", OTHER)];

  it("is expected as the preview serves it when the preview made it from the tag the manifest expects", () => {
    const [atms, page, style] = asPreviewServes(checks, {
      replaced: [{ path: "/", built: BUILT, served: SERVED }],
    });
    expect(page).toEqual({
      path: "/",
      what: "document, the preview's own, made from the build's",
      expected: {
        status: 200,
        etag: { exact: SERVED },
        lastModified: DATE,
        sha256: "b".repeat(64),
      },
    });
    // Every other path, one with the very same tag among them, as the manifest says.
    expect(atms).toBe(checks[0]);
    expect(style).toBe(checks[2]);
  });

  it("is expected as the manifest says when the preview made it from another build's", () => {
    expect(
      asPreviewServes(checks, { replaced: [{ path: "/", built: OTHER, served: SERVED }] }),
    ).toEqual(checks);
  });
});
