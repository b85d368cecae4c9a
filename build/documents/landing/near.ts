/**
 * The landing page's "Find near a point" section: a curl example of the geo-location extension
 * path, at the position of a published ATM (or branch) so it answers something, and the other
 * extension paths in a list. Absent when no data set has extension paths.
 */
import {
  NEAR_PREFIX,
  NEAR_STANDARD_PREFIX,
  POSTCODE_RADIUS_MILES,
  RADIUS_MILES,
  type NearEntry,
} from "../../../contract/near.js";
import type { ManifestEntry } from "../../../contract/manifest.js";
import type { LocatedRecord } from "../../assemble/locations.js";
import { escapeHtml as text } from "./html.js";
import { ORIGIN, shellExample } from "./origin.js";
import type { SiteSettings } from "../../read/site.js";

export interface NearSectionInput {
  readonly datasets: readonly { readonly entry: ManifestEntry }[];
  readonly settings: Pick<SiteSettings, "PublicOrigin">;
  readonly located: readonly LocatedRecord[];
  readonly near?: readonly NearEntry[];
}

/** The section's HTML, or "" when there is nothing to show. */
export function nearSection({ datasets, located, near = [], settings }: NearSectionInput): string {
  // ATMs are what "near me" is most often asked of; branches where a publisher has no ATMs.
  const geos = near.filter((n) => n.filters.includes("geo-location"));
  const geo = geos.find((n) => n.dataset === "atms") ?? geos[0];
  const entry = geo && datasets.find((d) => d.entry.dataset === geo.dataset)?.entry;
  if (!geo || !entry) return "";
  const name = entry.path.slice(NEAR_STANDARD_PREFIX.length);
  const at = located.find((l) => l.kind === "ATMs") ?? located[0];
  // Four decimals (about 10 m) are what a finder sends; the sample's first ATM answers itself.
  const lat = at ? at.latitude.toFixed(4) : "51.5074";
  const lon = at ? at.longitude.toFixed(4) : "-0.1278";
  const curl = [
    `# the ${name} within 2 miles, nearest first; a second request with the ETag gets a 304`,
    `curl -si "${ORIGIN}${NEAR_PREFIX}${name}/geo-location/lat/${lat}/long/${lon}?radius=2"`,
  ].join("\n");
  const paths = [
    [
      `${NEAR_PREFIX}{atms,branches}/geo-location/lat/{lat}/long/{long}?radius=N`,
      `within N miles (${RADIUS_MILES.min} to ${RADIUS_MILES.max}, default ${RADIUS_MILES.default})`,
    ],
    [
      `${NEAR_PREFIX}{atms,branches}/postcode/{postcode}`,
      `within ${POSTCODE_RADIUS_MILES} miles of a postcode (letters and digits only)`,
    ],
    [`${NEAR_PREFIX}{atms,branches}/country/{country}/town/{town}`, "in a town (any letter case)"],
    [`${NEAR_PREFIX}branches/sortcode/{sortcode}`, "a branch by sort code"],
    [`${NEAR_PREFIX}{product data set}/segment/{segment}`, "products for a segment"],
  ].map(([path, what]) => `<li><code>${text(path!)}</code>: ${text(what!)}</li>`);
  return [
    '<section aria-labelledby="near">',
    '<h2 id="near">Find near a point</h2>',
    "<p>A branch finder need not download a whole list. These paths answer the data set's own envelope holding only the records asked for, with the same headers, ETags, 304s and rate limit as the data set (<code>/x-open-banking/v2.2/</code> too, where the live standard's paths are on):</p>",
    shellExample(curl, settings.PublicOrigin),
    `<ul>${paths.join("\n")}</ul>`,
    "</section>",
  ].join("\n");
}
