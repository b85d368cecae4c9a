/**
 * A problem found in content, located at its file, line and column and at the JSON pointer of the
 * value inside that file. Every step of the build reports through this one type, so the CLI can
 * print all of a run's problems together, sorted, in one format.
 */

export interface Diagnostic {
  /** Path of the content file as the editor sees it (relative to the working folder, `/`-separated). */
  readonly file: string;
  /** 1-based line. */
  readonly line: number;
  /** 1-based column. */
  readonly column: number;
  /** JSON pointer (RFC 6901) of the value inside the file's document; "" is the whole document. */
  readonly pointer: string;
  /** What is wrong, in an editor's words. */
  readonly message: string;
  /** The rule broken: a JSON Schema keyword, or "yaml", "duplicate", "brand", "content". */
  readonly rule: string;
}

/**
 * A problem with a file or folder as a whole (missing, too large, refused), or with something
 * built from it that has no line of its own: reported at line 1, column 1, where editors open it.
 */
export function atFileStart(file: string, rule: string, message: string, pointer = ""): Diagnostic {
  return { file, line: 1, column: 1, pointer, rule, message };
}

/** `file:line:column: pointer: message`, the format compilers use, so editors can jump to it. */
export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.column}: ${d.pointer || "/"}: ${d.message}`;
}

/** Stable order: by file, then position, then message. */
export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return (
    compareStrings(a.file, b.file) ||
    a.line - b.line ||
    a.column - b.column ||
    compareStrings(a.message, b.message)
  );
}

/** Byte-order comparison for ASCII file paths, independent of locale. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Appends a JSON pointer segment, escaping `~` and `/` (RFC 6901 section 3). */
export function pointerJoin(pointer: string, segment: string | number): string {
  return `${pointer}/${String(segment).replace(/~/g, "~0").replace(/\//g, "~1")}`;
}

/** Splits a JSON pointer into unescaped segments. */
export function pointerSegments(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** Quotes a value for a message, shortened so one bad paragraph does not flood the output. */
export function showValue(value: unknown, max = 60): string {
  const text = typeof value === "string" ? JSON.stringify(value) : safeJson(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function safeJson(value: unknown): string {
  if (value === undefined) return "nothing";
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
