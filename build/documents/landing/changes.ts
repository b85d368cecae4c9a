/**
 * The landing page's "Changes" section: the last few publications (what each added, changed and
 * removed, with a link to the changes since the one before), how a copy keeps in sync, and the
 * feed. Absent when no data set has a changes endpoint.
 */
import { DATASETS } from "../../core/datasets.js";
import type { Publication } from "../../history/index.js";
import type { ChangesEntry } from "../../../contract/manifest.js";
import { CHANGES_FEED_PATH, SINCE_PARAMETER } from "../../../contract/changes.js";
import { changesLink, publicationTitle } from "../changes-feed.js";
import { escapeAttribute as attr, escapeHtml as text } from "./html.js";
import { ORIGIN, shellExample } from "./origin.js";
import type { SiteSettings } from "../../read/site.js";

/** How many publications the page shows. */
const LANDING_PUBLICATIONS = 5;

/** The `<link>` in the page's head that lets a browser or reader find the feed. */
export const FEED_LINK = `<link rel="alternate" type="application/atom+xml" title="Changes to the published data" href="${CHANGES_FEED_PATH}">`;

export interface ChangesSectionInput {
  readonly settings: Pick<SiteSettings, "PublicOrigin">;
  readonly changes?: readonly ChangesEntry[];
  readonly publications?: readonly Publication[];
}

export function changesSection({
  changes = [],
  publications = [],
  settings,
}: ChangesSectionInput): string {
  if (changes.length === 0) return "";
  const byId = new Map(DATASETS.map((d) => [d.id, d]));
  const items = publications.slice(0, LANDING_PUBLICATIONS).map((p) => {
    const dataset = byId.get(p.dataset)!;
    const entry = changes.find((c) => c.dataset === p.dataset);
    const since = p.before !== undefined && entry ? changesLink(entry, p.before) : undefined;
    const link =
      since !== undefined ? ` <a href="${attr(since)}">changes since ${text(p.before!)}</a>` : "";
    const names = [...p.named.added, ...p.named.changed, ...p.named.removed];
    return [
      `<li data-dataset="${attr(p.dataset)}" data-added="${p.added}" data-changed="${p.changed}" data-removed="${p.removed}">`,
      `<time datetime="${attr(p.lastUpdated)}">${text(p.lastUpdated)}</time> `,
      `<strong>${text(publicationTitle(p, dataset))}</strong>`,
      names.length > 0 ? ` (${text(names.join("; "))})` : "",
      link,
      "</li>",
    ].join("");
  });
  const example = changes.find((c) => c.dataset === "atms") ?? changes[0]!;
  const curl = [
    `# the records added or changed and the Identifications removed since the version you hold`,
    `curl -s "${ORIGIN}${example.path}?${SINCE_PARAMETER}=<its meta.LastUpdated or ETag>"`,
  ].join("\n");
  return [
    '<section aria-labelledby="changes">',
    '<h2 id="changes">Changes</h2>',
    "<p>A copy need not download a whole list again to learn what changed. Each data set's changes path answers, since the version you hold (its <code>meta.LastUpdated</code> or its ETag), every record added or changed, whole, and the <code>Identification</code> of every record removed, with the same headers, ETags, 304s and rate limit as the data set. A version too old to be kept gets 410: fetch the full list and start again from it.</p>",
    shellExample(curl, settings.PublicOrigin),
    items.length > 0
      ? `<h3 id="publications">Latest publications</h3>\n<ul class="publications">${items.join("\n")}</ul>`
      : "<p>No earlier publication is known here yet.</p>",
    `<p>Every publication, newest first, is in the Atom feed <a href="${CHANGES_FEED_PATH}"><code>${CHANGES_FEED_PATH}</code></a>.</p>`,
    "</section>",
  ].join("\n");
}
