/**
 * Reading a file the build stored, through the static-assets binding: the one place that decides
 * what a failure to read means. The binding throwing is transient (503); a file the binding
 * cannot find, or of another length than the manifest says, means the deployment's files and
 * manifest disagree, a server fault that lasts (500).
 */
import type { AssetFetcher } from "./runtime.js";

/**
 * Why a stored file could not be read: 503 (the binding failed) or 500 (the deployment's files and
 * manifest disagree).
 */
export class AssetError extends Error {
  constructor(
    readonly status: 500 | 503,
    message: string,
    /** What the binding threw, for a 503. */
    readonly reason?: unknown,
  ) {
    super(message);
    this.name = "AssetError";
  }
}

/**
 * The binding's answer for `asset`, whose length the manifest gives, with its body unread; throws
 * AssetError. The request is built afresh: no conditional headers reach ASSETS (its ETags are not
 * ours and it compares them exactly), and no Accept-Encoding either (each stored file is already
 * the coding wanted).
 */
export async function fetchAsset(
  assets: AssetFetcher,
  origin: string,
  asset: string,
  length: number,
): Promise<Response> {
  let response: Response;
  try {
    response = await assets.fetch(new Request(origin + asset));
  } catch (error) {
    throw new AssetError(503, `assets binding failed for ${asset}`, error);
  }
  const stated = response.headers.get("Content-Length");
  if (response.status !== 200 || !response.body || (stated !== null && Number(stated) !== length)) {
    await response.body?.cancel();
    throw new AssetError(
      500,
      `assets answered ${response.status} (length ${stated}, manifest ${length}) for ${asset}`,
    );
  }
  return response;
}
