/**
 * Step 1, read: the content tree turned into check jobs, one per file, each naming the schema and
 * the record rules its file must satisfy.
 */
import { readContent, type BrandUnit, type ContentTree } from "./content.js";
import { DATASETS } from "../core/datasets.js";

/** The schema site.yaml must satisfy. */
export const SITE_SCHEMA = "site.schema.json";

/** One file to check, with everything checking it needs; plain data, so it can cross threads. */
export interface CheckJob {
  /** Path as printed in messages. */
  readonly file: string;
  readonly text: string;
  /** Schema file the document must satisfy. */
  readonly schema: string;
  readonly recordsKey: string | null;
  readonly identity: readonly string[];
}

/** A job for every file of the given brands, in their order. */
export function brandJobs(units: readonly BrandUnit[]): Promise<CheckJob[]> {
  return Promise.all(
    units.flatMap((unit) =>
      unit.files.map(async (file) => ({
        file: file.display,
        text: await readContent(file),
        schema: unit.dataset.brandSchema,
        recordsKey: unit.dataset.recordsKey,
        identity: unit.dataset.identity,
      })),
    ),
  );
}

/** A job for the site file, when there is one, and for every brand file, in DATASETS order. */
export async function contentJobs(tree: ContentTree): Promise<CheckJob[]> {
  const units = DATASETS.flatMap((dataset) => tree.units.get(dataset.id) ?? []);
  const [site, brands] = await Promise.all([
    tree.site
      ? readContent(tree.site).then((text) => [
          { file: tree.site!.display, text, schema: SITE_SCHEMA, recordsKey: null, identity: [] },
        ])
      : [],
    brandJobs(units),
  ]);
  return [...site, ...brands];
}
