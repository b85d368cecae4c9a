/**
 * Step 3, site.yaml's Sites checked against the content (docs/decisions.md#sites): what its
 * schema cannot say. Two sites with one Name or one Host (reported at both, each naming the
 * other), a Brands entry that names no brand of the content, and a brand that no site publishes.
 * Every problem is at its line in site.yaml, like every other content problem; the schema has
 * already checked each entry's shape, so this runs only on a valid site.yaml.
 */
import type { DatasetDefinition } from "../core/datasets.js";
import { closest } from "../core/closest.js";
import { atBothPlaces, sourcePlace, type Diagnostic, type Place } from "../core/diagnostics.js";
import { pointerJoin } from "../core/json-pointer.js";
import type { ContentFile } from "../read/content.js";
import { readContent } from "../read/content.js";
import type { SiteSettings } from "../read/site.js";
import { locate, parseYaml } from "../read/yaml-source.js";
import type { CheckedUnit } from "./across-files.js";

/** The problems of site.yaml's Sites against the brands of `units`; none without Sites. */
export async function checkSites(
  siteFile: ContentFile,
  settings: SiteSettings,
  units: ReadonlyMap<DatasetDefinition, readonly CheckedUnit[]>,
): Promise<Diagnostic[]> {
  const sites = settings.Sites;
  if (sites === undefined) return [];
  // site.yaml is a few lines: read again for the places, rather than carry them for every file.
  const source = parseYaml(siteFile.display, await readContent(siteFile));
  const at = (pointer: string, key = false): Place => ({
    file: siteFile.display,
    pointer,
    ...locate(source, pointer, key),
  });
  const problems: Diagnostic[] = [];

  // Where each brand is first named in the content, by its BrandName, in data set order.
  const brands = new Map<string, string>();
  for (const datasetUnits of units.values()) {
    for (const { files } of datasetUnits) {
      const named = files.find((f) => f.brandName);
      if (named?.brandName && !brands.has(named.brandName.value)) {
        brands.set(named.brandName.value, sourcePlace({ file: named.file, ...named.brandName }));
      }
    }
  }

  for (const field of ["Name", "Host"] as const) {
    const seen = new Map<string, Place>();
    sites.forEach((declared, i) => {
      const here = at(pointerJoin(pointerJoin("/Sites", i), field));
      const first = seen.get(declared[field]);
      if (!first) seen.set(declared[field], here);
      else {
        const message = `${field} ${JSON.stringify(declared[field])} is given to two sites`;
        problems.push(...atBothPlaces(first, here, "duplicate", message));
      }
    });
  }

  const known = [...brands.keys()];
  let everyBrand = false;
  const published = new Set<string>();
  sites.forEach((declared, i) => {
    if (declared.Brands === undefined) everyBrand = true;
    declared.Brands?.forEach((brand, j) => {
      published.add(brand);
      if (brands.has(brand)) return;
      const near = closest(brand, known);
      const hint = near ? `; did you mean ${JSON.stringify(near)}?` : "";
      problems.push({
        ...at(pointerJoin(pointerJoin(pointerJoin("/Sites", i), "Brands"), j)),
        rule: "brand",
        message: `no brand of the content has the BrandName ${JSON.stringify(brand)}${hint}`,
      });
    });
  });

  if (!everyBrand) {
    const list = at("/Sites", true);
    for (const [brand, where] of brands) {
      if (published.has(brand)) continue;
      problems.push({
        ...list,
        rule: "brand",
        message: `the brand ${JSON.stringify(brand)} (${where}) is in no site: name it in a site's Brands, or leave Brands out of a site that publishes every brand`,
      });
    }
  }
  return problems;
}
