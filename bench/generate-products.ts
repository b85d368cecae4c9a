/**
 * Product data at benchmark sizes, made from the sample content: each data set's richest sample
 * product (the one with the fullest fee tables) is copied with new identifications, and every copy
 * gets exactly two marketing states, the second succeeding the first. The copies therefore use the
 * standard's full shape, pass the schemas and the products rule book, and weigh what a real
 * product does.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { parse } from "yaml";
import {
  DATASETS,
  type DatasetDefinition,
  type ProductRecordsKey,
} from "../build/core/datasets.js";
import { CONTENT_DIR } from "../build/core/paths.js";

/** How many products of each product data set to generate. */
export interface ProductSizes {
  readonly pca: number;
  readonly bca: number;
  readonly sme: number;
  readonly ccc: number;
}

const KEYS: Readonly<Record<keyof ProductSizes, ProductRecordsKey>> = {
  pca: "PCA",
  bca: "BCA",
  sme: "SMELoan",
  ccc: "CCC",
};

type Json = Record<string, unknown>;

/** A product data set's definition and the template product its copies are made from. */
export interface ProductTemplate {
  readonly dataset: DatasetDefinition;
  readonly key: ProductRecordsKey;
  readonly template: Json;
}

/** The richest sample product of each product data set, read from content/. */
export async function loadTemplates(
  contentDir: string = CONTENT_DIR,
): Promise<Record<keyof ProductSizes, ProductTemplate>> {
  const entries = await Promise.all(
    Object.entries(KEYS).map(async ([name, key]) => {
      const dataset = DATASETS.find((d) => d.recordsKey === key)!;
      const folder = join(contentDir, dataset.contentDir);
      const products: Json[] = [];
      for (const file of (await readdir(folder)).filter((f) => f.endsWith(".yaml")).sort()) {
        const brand = parse(await readFile(join(folder, file), "utf8")) as Json;
        products.push(...((brand[key] as Json[] | undefined) ?? []));
      }
      const weight = (p: Json) => JSON.stringify(p).length;
      const template = products.reduce((a, b) => (weight(b) > weight(a) ? b : a));
      return [name, { dataset, key, template }] as const;
    }),
  );
  return Object.fromEntries(entries) as Record<keyof ProductSizes, ProductTemplate>;
}

/** Copy number `n` of a template: new identifications, two marketing states. */
function productCopy({ dataset, key, template }: ProductTemplate, n: number): Json {
  const stateKey = dataset.marketingStateKey!;
  const id = `${key}-${String(n).padStart(6, "0")}`;
  const states = structuredClone(template[stateKey] as Json[]);
  const [first, second = structuredClone(first!)] = states;
  const regular: Json = { ...first!, Identification: `${id}-1` };
  delete regular.PredecessorID;
  const successor = { ...second, Identification: `${id}-2`, PredecessorID: `${id}-1` };
  return {
    ...structuredClone(template),
    Name: `${String(template.Name)} ${n}`,
    Identification: id,
    [stateKey]: [regular, successor],
  };
}

/** Every product list to write: data set, record key and the generated products. */
export function productLists(
  templates: Record<keyof ProductSizes, ProductTemplate>,
  sizes: ProductSizes,
  range: (count: number) => number[],
): [folder: string, key: string, records: Json[]][] {
  return (Object.keys(KEYS) as (keyof ProductSizes)[]).map((size) => {
    const t = templates[size];
    return [t.dataset.contentDir, t.key, range(sizes[size]).map((n) => productCopy(t, n))];
  });
}
