/**
 * The near-me test data set: two ATMs of one brand whose index is written out here by hand, so an
 * answer's exact bytes can be stated literally, in a manifest with the index of three data sets.
 */
import type { Manifest } from "../../../contract/manifest.js";
import type { NearEntry, NearIndex } from "../../../contract/near.js";
import { makeFixture, type Fixture } from "./fixture.js";

// Two ATMs of one brand: A at Wexbury, B about 3.4 miles north of it; both at GB/Wexbury.
export const A = '{"Identification":"A","Location":{"PostalAddress":{"TownName":"Wexbury"}}}';
export const B = '{"Identification":"B","Location":{"PostalAddress":{"TownName":"Wexbury"}}}';
export const META_HEAD = '{"meta":{"LastUpdated":"2026-11-20T10:00:00Z","TotalResults":';
export const META_TAIL = ',"Agreement":"x"},"data":';
export const BRAND_HEAD = '{"BrandName":"Wexbury Bank","ATM":[';
export const BRAND_TAIL = "]}";
const BODY = `${META_HEAD}2${META_TAIL}[{"Brand":[${BRAND_HEAD}${A},${B}${BRAND_TAIL}]}]}`;
const at = (text: string, from = 0) => BODY.indexOf(text, from);
const end = (text: string, from = 0) => at(text, from) + text.length;

const INDEX: NearIndex = {
  formatVersion: 1,
  dataset: "atms",
  body: { asset: "/std/v2.2/atms.json", etag: '"body"', length: BODY.length },
  head: [0, META_HEAD.length],
  metaTail: [at(META_TAIL), end(META_TAIL)],
  brands: [at(BRAND_HEAD), end(BRAND_HEAD), at(BRAND_TAIL, end(B)), end(BRAND_TAIL, end(B))],
  records: [0, at(A), end(A), 0, at(B), end(B)],
  // Sorted by latitude: A, then B.
  located: [54.1, -1.7, 0, 54.15, -1.7, 1],
  country: { GB: [0, 1] },
  town: { "GB/wexbury": [0, 1] },
  sortcode: {},
  segment: {},
  postcodes: { unit: { WX14AB: [54.1, -1.7] }, sector: {}, district: { LQ7: [54.15, -1.7] } },
};
const INDEX_TEXT = JSON.stringify(INDEX);

/**
 * The fixture's data sets, with near-me entries for atms, branches and personal current accounts,
 * and the atms index and body as files.
 */
export async function makeNearFixture(): Promise<Fixture> {
  const base = await makeFixture();
  const near = (dataset: string, filters: NearEntry["filters"], segments: string[] = []) => ({
    dataset,
    filters,
    segments,
    index: { asset: `/_near/${dataset}.json`, etag: `"index-of-${dataset}"`, length: 0 },
  });
  const manifest: Manifest = {
    ...base.manifest,
    near: [
      {
        ...near("atms", ["country", "geo-location", "postcode"]),
        index: {
          asset: "/_near/atms.json",
          etag: '"index-of-atms"',
          length: INDEX_TEXT.length,
        },
      },
      near("branches", ["country", "geo-location", "postcode", "sortcode"]),
      near("personal-current-accounts", ["segment"], ["Basic", "General"]),
    ],
  };
  const files = new Map(base.files);
  const encoder = new TextEncoder();
  files.set("/std/v2.2/atms.json", encoder.encode(BODY));
  files.set("/_near/atms.json", encoder.encode(INDEX_TEXT));
  return { manifest, files };
}
