/**
 * /x-std/changes.atom: the publication feed (Atom 1.0, RFC 4287). One entry per publication of a
 * data set, newest first, at most FEED_ENTRIES: how many records it added, changed and removed
 * against the publication before, a few of them named, and a link to the data set's changes
 * since that one. Written at build time from build/history/'s publications; the ids are
 * name-based UUIDs, so an entry keeps its id in every build (RFC 4287 section 4.2.6).
 */
import { createHash } from "node:crypto";
import { DATASETS, type DatasetDefinition } from "../core/datasets.js";
import { publisherName, type SiteSettings } from "../read/site.js";
import { formatCount } from "./landing/html.js";
import type { Publication } from "../history/index.js";
import type { ChangesEntry } from "../../contract/manifest.js";
import {
  CHANGES_FEED_MEDIA_TYPE,
  CHANGES_FEED_PATH,
  SINCE_PARAMETER,
} from "../../contract/changes.js";

/** At most this many entries, newest first. */
const FEED_ENTRIES = 100;

/** RFC 4287 section 2: the Atom namespace. */
const ATOM_NAMESPACE = "http://www.w3.org/2005/Atom";

// RFC 9562 section 6.6: the namespace of name-based UUIDs whose names are URLs.
const URL_NAMESPACE = "6ba7b811-9dad-11d1-80b4-00c04fd430c8";

/** A name-based UUID, version 5 (SHA-1; RFC 9562 section 5.5), as a `urn:uuid:` URI. */
function nameUuid(name: string): string {
  const namespace = Buffer.from(URL_NAMESPACE.replaceAll("-", ""), "hex");
  const hash = createHash("sha1").update(namespace).update(name, "utf8").digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString("hex");
  return `urn:uuid:${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Text for XML character data and double-quoted attributes. */
function escapeXml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

/**
 * The link of a publication: its data set's changes since the publication before, when that
 * version is still kept (the oldest kept version's publication is told against one that is not).
 */
export function changesLink(entry: ChangesEntry, before: string): string | undefined {
  if (!entry.answers.some((a) => a.since === before)) return undefined;
  // A LastUpdated has only digits, "-", "T", ":" and "Z", all allowed in a query (RFC 3986).
  return `${entry.path}?${SINCE_PARAMETER}=${before}`;
}

/** A count with what it counts: "1,234 added" (en-GB's thousands separator, without ICU's cost). */
function counted(n: number, what: string): string {
  return `${formatCount(n)} ${what}`;
}

/** The title of a publication's entry: the data set and its counts. */
export function publicationTitle(p: Publication, dataset: DatasetDefinition): string {
  if (p.before === undefined) {
    return `${dataset.title}: first publication, ${counted(p.added, p.added === 1 ? "record" : "records")}`;
  }
  const parts = [
    p.added > 0 ? counted(p.added, "added") : "",
    p.changed > 0 ? counted(p.changed, "changed") : "",
    p.removed > 0 ? counted(p.removed, "removed") : "",
  ].filter(Boolean);
  return `${dataset.title}: ${parts.length > 0 ? parts.join(", ") : "no record changed"}`;
}

/** The summary of a publication's entry: its counts with a few records named, in one sentence. */
function publicationSummary(p: Publication, dataset: DatasetDefinition): string {
  const named = (n: number, names: readonly string[], verb: string) => {
    if (n === 0) return "";
    const more = n - names.length;
    const list = names.join("; ") + (more > 0 ? `; and ${counted(more, "more")}` : "");
    return `${counted(n, n === 1 ? "record" : "records")} ${verb}: ${list}`;
  };
  const parts = [
    named(p.added, p.named.added, "added"),
    named(p.changed, p.named.changed, "changed"),
    named(p.removed, p.named.removed, "removed"),
  ].filter(Boolean);
  const against =
    p.before === undefined
      ? `${dataset.title} (${dataset.path}) first published at ${p.lastUpdated}`
      : `${dataset.title} (${dataset.path}) published at ${p.lastUpdated}, against ${p.before}`;
  const none =
    p.before === undefined
      ? "no records"
      : "no record added, changed or removed (the content changed elsewhere)";
  return `${against}: ${parts.length > 0 ? parts.join(". ") : none}.`;
}

export interface FeedInput {
  readonly publications: readonly Publication[];
  readonly changes: readonly ChangesEntry[];
  readonly settings: SiteSettings;
  /** The feed's time when it has no entry: the newest data set's, as the other documents. */
  readonly updated: string;
}

/** The whole feed document. */
export function changesFeed(input: FeedInput): string {
  const { settings } = input;
  const publisher = publisherName(settings);
  const byId = new Map(DATASETS.map((d) => [d.id, d]));
  const entries = input.publications.slice(0, FEED_ENTRIES).map((p) => {
    const dataset = byId.get(p.dataset)!;
    const changes = input.changes.find((c) => c.dataset === p.dataset);
    const since = p.before !== undefined && changes ? changesLink(changes, p.before) : undefined;
    const link = since ?? dataset.path;
    const type = since !== undefined ? changes!.mediaType : dataset.mediaType;
    const id = nameUuid(`${dataset.path}@${p.lastUpdated}#${[...p.brands].sort().join("\n")}`);
    return [
      "<entry>",
      `<id>${id}</id>`,
      `<title>${escapeXml(publicationTitle(p, dataset))}</title>`,
      `<updated>${p.lastUpdated}</updated>`,
      `<link rel="alternate" type="${escapeXml(type)}" href="${escapeXml(link)}"/>`,
      `<category term="${escapeXml(dataset.id)}" label="${escapeXml(dataset.title)}"/>`,
      `<summary type="text">${escapeXml(publicationSummary(p, dataset))}</summary>`,
      "</entry>",
    ].join("");
  });
  const updated = input.publications[0]?.lastUpdated ?? input.updated;
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<feed xmlns="${ATOM_NAMESPACE}"${settings.PublicOrigin ? ` xml:base="${escapeXml(settings.PublicOrigin)}/"` : ""}>`,
    `<id>${nameUuid(`${CHANGES_FEED_PATH}#${settings.PublicOrigin ?? publisher}`)}</id>`,
    `<title>${escapeXml(`${publisher}: changes to the published data`)}</title>`,
    `<subtitle>${escapeXml("Each publication of a data set: how many records were added, changed and removed, and a link to the changes since the publication before.")}</subtitle>`,
    `<updated>${updated}</updated>`,
    `<author><name>${escapeXml(publisher)}</name></author>`,
    `<link rel="self" type="${CHANGES_FEED_MEDIA_TYPE}" href="${CHANGES_FEED_PATH}"/>`,
    '<link rel="alternate" type="text/html" href="/"/>',
    ...entries,
    "</feed>",
    "",
  ].join("\n");
}
