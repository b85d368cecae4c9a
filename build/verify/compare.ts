/**
 * Whether one answer is what the build made (checks.ts says what that is), as a pure function of
 * the answer's status, fields and body hash, so every rule is tested as a table.
 */
import type { Expected } from "./checks.js";

/** What the deployment answered to one GET. */
export interface Answer {
  readonly status: number;
  readonly etag: string | null;
  readonly lastModified: string | null;
  /** The Date field: when the answer was made. */
  readonly date: string | null;
  /** Hex SHA-256 of the body as received. */
  readonly sha256: string;
}

/** A strong tag from a possibly weakened one: the edge may add W/ (RFC 9110 section 8.8.3). */
function unweakened(etag: string): string {
  return etag.startsWith("W/") ? etag.slice(2) : etag;
}

/** A long tag or digest cut for a report line: its first 24 characters say enough. */
function short(text: string): string {
  // A tag's quotes are kept and not counted; a tag's start (a prefix) has only the first.
  const open = text.startsWith('"') ? '"' : "";
  const close = text.length > 1 && text.endsWith('"') ? '"' : "";
  const inner = text.slice(open.length, text.length - close.length);
  return inner.length > 28 ? `${open}${inner.slice(0, 24)}…${close}` : text;
}

/**
 * True when the Worker sent its own Date as Last-Modified because the build's date is still ahead
 * of its clock: RFC 9110 section 8.8.2.1 forbids a Last-Modified later than Date, and the Worker
 * holds it back until its clock passes the content's date (worker/http/respond.ts).
 */
function heldBack(expected: Expected, answer: Answer): boolean {
  if (answer.date === null || answer.lastModified !== answer.date) return false;
  return Date.parse(expected.lastModified) > Date.parse(answer.date);
}

/** How `answer` differs from `expected`, one phrase per difference; empty when it is the same. */
export function differences(expected: Expected, answer: Answer): string[] {
  if (answer.status !== expected.status) {
    // Another status has other fields and another body: the status says it all.
    return [`status ${answer.status}, not ${expected.status}`];
  }
  const found: string[] = [];
  const etag = answer.etag === null ? null : unweakened(answer.etag);
  if ("exact" in expected.etag) {
    if (etag !== expected.etag.exact) {
      found.push(
        `ETag ${etag === null ? "missing" : short(etag)}, not ${short(expected.etag.exact)}`,
      );
    }
  } else if (etag === null || !etag.startsWith(expected.etag.prefix)) {
    found.push(
      `ETag ${etag === null ? "missing" : short(etag)}, not one starting ${short(expected.etag.prefix)}`,
    );
  }
  if (answer.lastModified !== expected.lastModified && !heldBack(expected, answer)) {
    found.push(
      `Last-Modified ${answer.lastModified === null ? "missing" : JSON.stringify(answer.lastModified)}, not ${JSON.stringify(expected.lastModified)}`,
    );
  }
  if (expected.sha256 !== undefined && answer.sha256 !== expected.sha256) {
    found.push(`body SHA-256 ${short(answer.sha256)}, not ${short(expected.sha256)}`);
  }
  return found;
}
