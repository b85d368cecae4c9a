/** Reading a stored file through the ASSETS binding: what each failure is answered with. */
import { describe, expect, it } from "vitest";
import { AssetError, fetchAsset } from "../../worker/assets.js";
import { MemoryAssets, type AssetFailure } from "../fakes/platform.js";

const ORIGIN = "https://opendata.example";
const BYTES = new TextEncoder().encode("stored bytes");
const assetsWith = (failure: AssetFailure) => {
  const assets = new MemoryAssets(new Map([["/std/v2.2/atms.json", BYTES]]));
  assets.failure = failure;
  return assets;
};

describe("fetchAsset", () => {
  it("gives the binding's answer, its body unread, and asks with no header at all", async () => {
    const assets = assetsWith("none");
    const response = await fetchAsset(assets, ORIGIN, "/std/v2.2/atms.json", BYTES.length);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(BYTES);
    expect(assets.requests.map((r) => r.url)).toEqual([`${ORIGIN}/std/v2.2/atms.json`]);
    expect([...assets.requests[0]!.headers.keys()]).toEqual([]);
  });

  it.each<[string, AssetFailure, number, number, string]>([
    [
      "the binding throws",
      "throw",
      BYTES.length,
      503,
      "assets binding failed for /std/v2.2/atms.json",
    ],
    [
      "the file is missing",
      "missing",
      BYTES.length,
      500,
      "assets answered 404 (length null, manifest 12) for /std/v2.2/atms.json",
    ],
    [
      "the file has another length than the binding says",
      "wrong-length",
      BYTES.length,
      500,
      "assets answered 200 (length 13, manifest 12) for /std/v2.2/atms.json",
    ],
    [
      "the manifest gives another length",
      "none",
      BYTES.length + 1,
      500,
      "assets answered 200 (length 12, manifest 13) for /std/v2.2/atms.json",
    ],
  ])(
    "throws AssetError when %s: transient 503 or lasting 500",
    async (_name, failure, length, status, message) => {
      const error = await fetchAsset(
        assetsWith(failure),
        ORIGIN,
        "/std/v2.2/atms.json",
        length,
      ).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(AssetError);
      expect((error as AssetError).status).toBe(status);
      expect((error as AssetError).message).toBe(message);
    },
  );

  it("keeps what the binding threw as the reason of a 503", async () => {
    const error = (await fetchAsset(assetsWith("throw"), ORIGIN, "/std/v2.2/atms.json", 12).catch(
      (e: unknown) => e,
    )) as AssetError;
    expect(String(error.reason)).toBe("Error: assets binding unavailable");
  });
});
