/**
 * `npm run verify` against the live preview (`npm start`), which serves the build with its own
 * landing page: the build's page with the preview's script and panels added, so another body and
 * another ETag. The preview says which paths it answers with its own bytes, and from which of the
 * build's tags it made them (contract/preview.ts, PreviewPublication); a path is then expected to
 * carry the preview's tag only where the build's tag it names is the one this manifest expects.
 * Asked of a loopback base URL only: a deployment is never the preview, so what verify expects of
 * a real deployment is the manifest's, whatever it answers
 * (docs/decisions.md#verify-against-the-live-preview).
 */
import { PREVIEW_PUBLICATION_PATH, type PreviewPublication } from "../../contract/preview.js";
import type { PathCheck } from "./checks.js";

/** Whether `base` names this machine: only there can the live preview be. */
export function isLoopback(base: URL): boolean {
  const host = base.hostname;
  return host === "localhost" || host === "[::1]" || /^127(\.\d{1,3}){3}$/.test(host);
}

/** A quoted strong tag of a hex SHA-256, as the preview writes its identity tags. */
const IDENTITY_TAG = /^"[0-9a-f]{64}"$/;

/** `value` as a PreviewPublication, or undefined when it is not one. */
export function asPublication(value: unknown): PreviewPublication | undefined {
  const replaced = (value as { replaced?: unknown } | null)?.replaced;
  if (!Array.isArray(replaced)) return undefined;
  const valid = replaced.every(
    (r: { path?: unknown; built?: unknown; served?: unknown } | null) =>
      typeof r?.path === "string" &&
      typeof r.built === "string" &&
      typeof r.served === "string" &&
      IDENTITY_TAG.test(r.built) &&
      IDENTITY_TAG.test(r.served),
  );
  return valid ? (value as PreviewPublication) : undefined;
}

/**
 * What the preview at `base` says it serves in place of the build, or undefined: not on
 * loopback, not a preview (no such document: a Worker of a deployed build answers 404), or an
 * answer that is not one.
 */
export async function previewPublication(
  base: URL,
  options: { readonly fetch: typeof fetch; readonly timeoutMs: number },
): Promise<PreviewPublication | undefined> {
  if (!isLoopback(base)) return undefined;
  try {
    const response = await options.fetch(new URL(PREVIEW_PUBLICATION_PATH, base), {
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    if (response.status !== 200) {
      await response.body?.cancel();
      return undefined;
    }
    return asPublication(await response.json());
  } catch {
    return undefined;
  }
}

/**
 * `checks` with each path the preview replaced expected as the preview serves it (its tag, and a
 * body hashing to it), where the preview made it from the very answer the check expects; every
 * other check as it was. A preview made from another build's page is still compared with this
 * one's, and differs.
 */
export function asPreviewServes(
  checks: readonly PathCheck[],
  publication: PreviewPublication,
): PathCheck[] {
  return checks.map((check) => {
    const replaced = publication.replaced.find((r) => r.path === check.path);
    if (!replaced || !("exact" in check.expected.etag)) return check;
    if (replaced.built !== check.expected.etag.exact) return check;
    return {
      ...check,
      what: `${check.what}, the preview's own, made from the build's`,
      expected: {
        ...check.expected,
        etag: { exact: replaced.served },
        sha256: replaced.served.replaceAll('"', ""),
      },
    };
  });
}
