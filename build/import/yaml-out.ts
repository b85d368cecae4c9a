/**
 * Writes content YAML that the build reads back as exactly the feed's JSON. Every string is
 * double-quoted, as in the sample content, so no string can be read as another type: under the
 * YAML 1.2 core schema the build parses with (read/yaml-source.ts), plain `0`, `1.50`, `true`,
 * `null`, `~`, `1e3`, `0x1F`, `0o7` and `.inf` are numbers, booleans and null, and quoting also
 * keeps `09:00`, `2026-01-31` and `yes` text for YAML 1.1 tools editors may use. Keys stay plain
 * (the yaml package quotes one that needs it); numbers, booleans and null are written as such.
 */
import { Document } from "yaml";

/** The yaml-language-server modeline that ties a file to its schema (docs/editing.md, "While typing"). */
export function schemaModeline(relativeSchemaPath: string): string {
  return `# yaml-language-server: $schema=${relativeSchemaPath}`;
}

/**
 * One comment line per entry; line breaks and other control characters (Unicode's Cc: C0, DEL and
 * C1) and the line and paragraph separators become spaces.
 */
function commentLines(lines: readonly string[]): string {
  return lines.map((line) => `# ${line.replace(/[\p{Cc}\u2028\u2029]/gu, " ")}`).join("\n");
}

/** `value` as a YAML document headed by the modeline and comment lines. */
export function renderYaml(value: unknown, modeline: string, comments: readonly string[]): string {
  const doc = new Document(value, { schema: "core" });
  const body = doc.toString({
    // No folding: each value stays on its line, so a change reads as one line in a diff.
    lineWidth: 0,
    defaultStringType: "QUOTE_DOUBLE",
    defaultKeyType: "PLAIN",
  });
  return [modeline, ...(comments.length > 0 ? [commentLines(comments)] : []), body].join("\n");
}
