/**
 * A request to a changes path as a representation the response path answers like any other
 * (worker/http/respond.ts): the method, then a bad query's 400 (no body source, so it counts
 * against no quota, like a 404), then maintenance and quota, then a token no kept version has
 * answers 410, else the stored answer its token names, served with its codings, ETags, 304 and
 * HEAD as a data set's body is. The selection is select.ts's.
 */
import { CHANGES_MAX_AGE_SECONDS } from "../../contract/headers.js";
import { CODING_PREFERENCE } from "../http/encoding.js";
import type { BodySource, Representation } from "../http/representation.js";
import { selectChanges, type ChangesRoute } from "./select.js";

const GONE: BodySource = { kind: "gone" };
const NO_HEADERS: Representation["headers"] = [];

/** The representation a request to `route` with the query `search` asks for. */
export function changesRepresentation(
  route: ChangesRoute,
  search: URLSearchParams,
): Representation {
  const selected = selectChanges(route, search);
  let body: BodySource | undefined;
  if (selected.status === 410) body = GONE;
  else if (selected.status === 200) {
    const { variants } = selected.file;
    body = {
      kind: "stored",
      variants,
      codings: CODING_PREFERENCE.filter((coding) => variants[coding] !== undefined),
    };
  }
  return {
    asked: route.asked,
    plan: route.plan,
    mediaType: route.mediaType,
    lastModified: route.entry.lastModified,
    lastModifiedMs: route.entry.lastModifiedMs,
    // An answer since a version changes with every publication (contract/headers.ts).
    maxAge: CHANGES_MAX_AGE_SECONDS,
    headers: NO_HEADERS,
    body,
    problem: selected.status === 400 ? selected.problem : undefined,
  };
}
