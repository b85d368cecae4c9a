/**
 * How fresh an answer is, how to revalidate it and how often to poll: one story, told in these
 * words by the landing page and by docs/consumers.md ("How fresh an answer is"), which a test holds
 * to this text for the specs' default. Markdown-like: `code` in backticks, nothing else.
 */
import {
  cacheControl,
  CHANGES_MAX_AGE_SECONDS,
  DEFAULT_MAX_AGE_SECONDS,
} from "../../contract/headers.js";
import { CHANGES_FEED_PATH } from "../../contract/changes.js";

/** A number of seconds in words: "8 hours", "1 minute", "90 seconds". */
export function inWords(seconds: number): string {
  const unit = (n: number, name: string) => `${n} ${name}${n === 1 ? "" : "s"}`;
  if (seconds > 0 && seconds % 3600 === 0) return unit(seconds / 3600, "hour");
  if (seconds > 0 && seconds % 60 === 0) return unit(seconds / 60, "minute");
  return unit(seconds, "second");
}

/** The paragraphs, for data sets reused for `maxAge` seconds (site.yaml's CacheMaxAgeSeconds). */
export function freshnessParagraphs(maxAge: number = DEFAULT_MAX_AGE_SECONDS): string[] {
  const specs = maxAge === DEFAULT_MAX_AGE_SECONDS ? ", the specs' default" : "";
  return [
    `**How old an answer may be.** A data set, its near-me answers and the documents about ` +
      `the APIs carry ` +
      `\`Cache-Control: ${cacheControl(maxAge)}\` (${inWords(maxAge)}${specs}): a browser or a ` +
      `cache may reuse one that long without asking again, so a plain \`fetch()\` in a browser ` +
      `can show a data set up to ${inWords(maxAge)} old. A changes answer and the feed at ` +
      `\`${CHANGES_FEED_PATH}\` change with every publication, so they carry ` +
      `\`Cache-Control: ${cacheControl(CHANGES_MAX_AGE_SECONDS)}\` ` +
      `(${inWords(CHANGES_MAX_AGE_SECONDS)}).`,
    `**How to revalidate.** Send the \`ETag\` you hold back in \`If-None-Match\` (or the ` +
      `\`Last-Modified\` in \`If-Modified-Since\`): while nothing has changed the answer is a 304 ` +
      `with no body, which does not count against the rate limit. In a browser, ` +
      `\`fetch(url, { cache: "no-cache" })\` has the browser do exactly that with the copy it ` +
      `holds, however fresh; from a script, curl's \`--etag-compare\` and \`--etag-save\` do it.`,
    `**How often polling is worth it.** Every five minutes is plenty: the data changes a few ` +
      `times a day at most. Revalidate each time (a 304 is free), or ask the changes path or the ` +
      `feed; fetching a data set without revalidating gains nothing while its copy is fresh.`,
  ];
}
