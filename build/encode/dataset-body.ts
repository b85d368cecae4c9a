/**
 * Step 5's output for one data set, and the one value every later step reads of it: the exact
 * bytes served, their strong ETag, what the manifest counts, the map's marks and the brands'
 * names, with the body's value and its records' byte ranges on demand.
 * build/assemble/one-dataset.ts makes it, from a body it has just assembled (whose value and
 * ranges it already holds) or from one the cache kept (parsed, and its ranges found, only when a
 * later step first asks, then remembered): encode, near, history and the documents never know
 * which.
 */
import type { DatasetDefinition } from "../core/datasets.js";
import type { Envelope } from "../core/envelope-shape.js";
import type { LastUpdated } from "../core/dates.js";
import type { LocatedRecord } from "../core/place.js";
import { bodySlices, recordText, type BodySlices } from "./body.js";
import { brandShell, metaText, recordHash, type DataParts } from "./data-digest.js";

/** What the manifest says of an assembled body besides its bytes. */
export interface BodySummary {
  /** meta.TotalResults. */
  readonly totalResults: number;
  readonly brands: number;
}

/** What a body is known by without parsing it: what assemble/one-dataset.ts caches with it. */
export interface BodyFacts {
  readonly dataset: DatasetDefinition;
  /** The exact bytes served without a content coding. */
  readonly bytes: Buffer;
  /** Their strong ETag (encode/variants.ts, entityTag). */
  readonly tag: string;
  readonly updated: LastUpdated;
  readonly summary: BodySummary;
  readonly located: readonly LocatedRecord[];
  /** Every BrandName the body publishes, in publication order. */
  readonly brandNames: readonly string[];
}

/** One data set's body, as step 5 made it or the cache kept it. */
export class DatasetBody implements BodyFacts {
  readonly dataset: DatasetDefinition;
  readonly bytes: Buffer;
  readonly tag: string;
  readonly updated: LastUpdated;
  readonly summary: BodySummary;
  readonly located: readonly LocatedRecord[];
  readonly brandNames: readonly string[];
  #value: Envelope | undefined;
  // undefined: not asked yet; null: asked, and the body has no slices.
  #slices: BodySlices | null | undefined;
  #hashes: readonly string[] | undefined;
  // A body with the same bytes, from a build before in the same session: what it worked out of
  // them (the value, the slices, the hashes) is this one's too, worked out once.
  readonly #like: DatasetBody | undefined;

  private constructor(
    facts: BodyFacts,
    value?: Envelope,
    slices?: BodySlices | null,
    like?: DatasetBody,
  ) {
    this.dataset = facts.dataset;
    this.bytes = facts.bytes;
    this.tag = facts.tag;
    this.updated = facts.updated;
    this.summary = facts.summary;
    this.located = facts.located;
    this.brandNames = facts.brandNames;
    this.#value = value;
    this.#slices = slices;
    // The first body of these bytes, so a session's bodies never chain one to the next.
    const first = like && (like.#like ?? like);
    this.#like = first?.bytes.equals(facts.bytes) ? first : undefined;
  }

  /** A body this build assembled: its value, and its slices as the serialiser wrote them. */
  static made(facts: BodyFacts, value: Envelope, slices: BodySlices | undefined): DatasetBody {
    return new DatasetBody(facts, value, slices ?? null);
  }

  /**
   * A body known by its bytes alone (kept by the cache, or read back): parsed when first asked,
   * or, given `like`, a body of a build before with the same bytes, through it.
   */
  static stored(facts: BodyFacts, like?: DatasetBody): DatasetBody {
    return new DatasetBody(facts, undefined, undefined, like);
  }

  /** The body's value, never to be changed: as assembled, or its bytes parsed once. */
  value(): Envelope {
    return (this.#value ??=
      this.#like?.value() ?? (JSON.parse(this.bytes.toString("utf8")) as Envelope));
  }

  /**
   * Where the envelope, each brand and each record are in `bytes` (encode/body.ts); undefined for
   * a body not made of one list of brands with their records (a data set without records, or
   * another shape). Throws when the ranges found do not rebuild the bytes exactly.
   */
  /**
   * Each record's hash (encode/data-digest.ts, recordHash), in publication order: what the build
   * dates the body by and the history compares, worked out once.
   */
  recordHashes(): readonly string[] {
    return (this.#hashes ??= this.#like?.recordHashes() ?? recordHashesOf(this));
  }

  slices(): BodySlices | undefined {
    if (this.#slices === undefined && this.#like) this.#slices = this.#like.slices() ?? null;
    if (this.#slices === undefined) {
      const key = this.dataset.recordsKey;
      this.#slices = (key === null ? undefined : bodySlices(this.bytes, this.value(), key)) ?? null;
    }
    return this.#slices ?? undefined;
  }
}

/**
 * The Data of a body the build made or read back, from its value and its records' hashes
 * (DatasetBody.recordHashes, worked out once per body). In the service metrics, where the brand
 * object is the record, each brand is one record with no shell.
 */
export function bodyData(body: DatasetBody): DataParts {
  const value = body.value();
  const brands = value.data.flatMap((d) => d.Brand);
  const key = body.dataset.recordsKey;
  const hashes = body.recordHashes();
  if (key === null) {
    return {
      meta: metaText(value.meta),
      brands: brands.map((_, i) => ({ shell: "", records: [{ hash: hashes[i]! }] })),
    };
  }
  let at = 0;
  return {
    meta: metaText(value.meta),
    brands: brands.map((brand) => ({
      shell: brandShell(brand, key),
      records: ((brand[key] ?? []) as unknown[]).map(() => ({ hash: hashes[at++]! })),
    })),
  };
}

/**
 * The hash of each record of a body, in publication order (each brand object in the service
 * metrics): from the record's bytes in the body where its slices say, else its serialisation.
 */
function recordHashesOf(body: DatasetBody): string[] {
  const value = body.value();
  const brands = value.data.flatMap((d) => d.Brand);
  const key = body.dataset.recordsKey;
  if (key === null) return brands.map((brand) => recordHash(recordText(brand)!));
  const slices = body.slices();
  const out: string[] = [];
  for (const brand of brands) {
    for (const record of (brand[key] ?? []) as unknown[]) {
      const range = slices?.records[out.length]?.range;
      out.push(
        recordHash(range ? body.bytes.toString("utf8", range[0], range[1]) : recordText(record)!),
      );
    }
  }
  return out;
}
