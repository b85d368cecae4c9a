/**
 * The changes endpoints' answer to a request, as pure functions of the manifest and the URL: which
 * data set (the path), then from the query either 400 (a `since` missing, malformed or given twice,
 * or any other parameter), 410 (a well-formed token that names no version kept) or the stored
 * answer to serve. The token maps are built once per isolate from the manifest; a request costs
 * one regular expression test and one map lookup, no parsing of data and no hashing.
 */
import type { ChangesEntry, Manifest, ServedFile } from "../../contract/manifest.js";
import { isSinceToken, SINCE_PARAMETER } from "../../contract/changes.js";
import { PARAMETER_FORMS, UNKNOWN_PARAMETER_FORM } from "../../contract/errors.js";
import type { PlanId } from "../../contract/rate-limits.js";
import type { ParameterProblem } from "../http/representation.js";
import type { Asked } from "../outcome.js";

/** One changes path: its data set's endpoint, the media type sent there, and its tokens. */
export interface ChangesRoute {
  readonly entry: ChangesEntry;
  /** The path's own Content-Type: the data set's, or its alias's under /x-open-banking/. */
  readonly mediaType: string;
  /** The data set's plan: one quota whichever path. */
  readonly plan: PlanId;
  /** What a request to it asks for (outcome.ts): the data set's changes since a version. */
  readonly asked: Asked;
  /**
   * Token to the answer to serve, as a static representation: this path, its media type, the
   * data set's Last-Modified, and per coding the stored file and its ETag.
   */
  readonly tokens: ReadonlyMap<string, ServedFile>;
}

/** Every changes path of `manifest` (and each alias), to its route. Throws on a broken entry. */
export function changesRoutes(manifest: Manifest): ReadonlyMap<string, ChangesRoute> {
  const routes = new Map<string, ChangesRoute>();
  for (const entry of manifest.changes ?? []) {
    for (const { path, mediaType } of [entry, ...entry.aliases]) {
      if (routes.has(path)) throw new Error(`${path} is listed twice in the manifest`);
      // One representation per answer and path, made here so a request allocates none.
      const files = entry.answers.map((answer): ServedFile => ({
        path,
        mediaType,
        lastModified: entry.lastModified,
        lastModifiedMs: entry.lastModifiedMs,
        variants: answer.variants,
      }));
      const tokens = new Map<string, ServedFile>();
      entry.answers.forEach((answer, i) => {
        for (const token of answer.tokens) tokens.set(token, files[i]!);
      });
      const asked: Asked = { kind: "changes", name: entry.dataset, detail: "since" };
      routes.set(path, { entry, mediaType, plan: entry.plan, asked, tokens });
    }
  }
  return routes;
}

/** What to answer: 400 and 410 with the spec's error body, or 200 (or 304) with a stored answer. */
export type ChangesSelection =
  | { readonly status: 400; readonly problem: ParameterProblem }
  | { readonly status: 410 }
  | {
      readonly status: 200;
      /**
       * The answer as a static representation: path, media type, Last-Modified (the data set's)
       * and per coding the stored file and its ETag; served like a data set's body.
       */
      readonly file: ServedFile;
    };

const BAD_SINCE: ChangesSelection = {
  status: 400,
  problem: { parameter: SINCE_PARAMETER, form: PARAMETER_FORMS.since },
};
const GONE: ChangesSelection = { status: 410 };

/**
 * The answer to `route` for the query `search`. Exactly one parameter, `since`, once: anything
 * else could not be understood (400, as the spec's rule 2 says). A well-formed token that names
 * no kept version is 410 (RFC 9110 section 15.5.11: that version is gone for good).
 */
export function selectChanges(route: ChangesRoute, search: URLSearchParams): ChangesSelection {
  let since: string | undefined;
  for (const [name, value] of search) {
    if (name !== SINCE_PARAMETER) {
      return { status: 400, problem: { parameter: name, form: UNKNOWN_PARAMETER_FORM } };
    }
    if (since !== undefined) return BAD_SINCE;
    since = value;
  }
  if (since === undefined || !isSinceToken(since)) return BAD_SINCE;
  const file = route.tokens.get(since);
  return file ? { status: 200, file } : GONE;
}
