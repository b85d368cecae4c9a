/**
 * A request to an extension path, after routing, as a representation the response path answers
 * like any other (worker/http/respond.ts: method, then the 400 of a bad parameter, then 503, 429,
 * 304), with the same headers and the data set's own quota. Its body is made per request from the
 * index. The ETag is known before any byte is read, so a 304 and a bad request never touch the
 * index (docs/decisions.md#the-etag-of-a-filtered-answer).
 */
import type { ErrorCause } from "../../contract/errors.js";
import type { Manifest } from "../../contract/manifest.js";
import { NEAR_FORMAT_VERSION } from "../../contract/near.js";
import type { Deps, NearDeps } from "../deps.js";
import type { MadeBody, Representation } from "../http/representation.js";
import { answerBytes } from "./body.js";
import { nearRoutes, queryKey, type NearMatch, type NearQuery, type NearRoute } from "./query.js";
import { selectRecords } from "./select.js";
import { NearStore } from "./store.js";

/** The extension endpoints of a manifest, with an empty store (one per isolate). */
export function nearDeps(manifest: Manifest): NearDeps {
  return { routes: nearRoutes(manifest), store: new NearStore() };
}

/**
 * The strong ETag of a filtered answer: the index's own tag (the SHA-256 of the index, which
 * names the body's), the format version of the Worker's selection, and the normalised query.
 * Every byte of the answer is a function of these three, and no two of them share a tag.
 */
export function nearEntityTag(indexEtag: string, query: NearQuery): string {
  return `"near.${NEAR_FORMAT_VERSION}.${indexEtag.replaceAll('"', "")}.${queryKey(query)}"`;
}

const NO_HEADERS: Representation["headers"] = [];

/** The representation a request `matchNear` matched asks for; no body for a bad parameter. */
export function nearRepresentation(
  { route, filter, query, problem }: NearMatch,
  deps: Deps,
  origin: string,
): Representation {
  return {
    asked: route.asked[filter],
    plan: route.plan,
    mediaType: route.mediaType,
    lastModified: route.entry.lastModified,
    lastModifiedMs: route.entry.lastModifiedMs,
    // A slice of its data set, reused as long.
    maxAge: route.maxAge,
    headers: NO_HEADERS,
    body: query === "bad" ? undefined : new NearBody(route, query, deps, origin),
    problem,
  };
}

/** The bytes of one filtered answer, made from the isolate's loaded index. */
class NearBody implements MadeBody {
  readonly kind = "made";
  readonly etag: string;

  constructor(
    private readonly route: NearRoute,
    private readonly query: NearQuery,
    private readonly deps: Deps,
    private readonly origin: string,
  ) {
    this.etag = nearEntityTag(route.near.index.etag, query);
  }

  async make(): Promise<Uint8Array | ErrorCause> {
    const loaded = await this.deps.near!.store.load(this.route.near, this.deps.assets, this.origin);
    const records = selectRecords(loaded, this.query);
    // A postcode the index cannot place (docs/decisions.md#a-postcode-that-cannot-be-placed).
    return records === "unplaced" ? "postcode-not-placed" : answerBytes(loaded, records);
  }
}
