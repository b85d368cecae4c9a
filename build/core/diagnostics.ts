/**
 * A problem found in content, located at its file, line and column and at the JSON pointer of the
 * value inside that file. Every step of the build reports through this one type, so the CLI can
 * print all of a run's problems together, sorted, in one format.
 */
import { printable, thousands } from "./format.js";

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
  /** The rule broken: a JSON Schema keyword, or "yaml", "duplicate", "brand", "content", or a data-quality rule id. */
  readonly rule: string;
  /** "warning" for what is worth a look but publishes anyway (the data-quality rules); an error otherwise. */
  readonly severity?: "warning";
}

/**
 * A problem with a file or folder as a whole (missing, too large, refused), or with something
 * built from it that has no line of its own: reported at line 1, column 1, where editors open it.
 */
export function atFileStart(file: string, rule: string, message: string, pointer = ""): Diagnostic {
  return { file, line: 1, column: 1, pointer, rule, message };
}

/**
 * `file:line:column`, the one way a place in a content file is written, in messages, reports and
 * pages alike, so editors and terminals can jump to it.
 */
export function sourcePlace(p: Pick<Diagnostic, "file" | "line" | "column">): string {
  return `${p.file}:${p.line}:${p.column}`;
}

/** Where a problem is, without what: a file, a position in it and the pointer of the value there. */
export type Place = Pick<Diagnostic, "file" | "line" | "column" | "pointer">;

/**
 * One problem between two places (a duplicate, two values that disagree): reported at both, each
 * message ending with where the other is, so an editor who opens either file finds the pair.
 */
export function atBothPlaces(
  first: Place,
  second: Place,
  rule: string,
  message: string,
): [Diagnostic, Diagnostic] {
  const at = (p: Place, other: Place): Diagnostic => ({
    file: p.file,
    line: p.line,
    column: p.column,
    pointer: p.pointer,
    rule,
    message: `${message}; the other is at ${sourcePlace(other)}`,
  });
  return [at(first, second), at(second, first)];
}

/**
 * `file:line:column: pointer: message`, the format compilers use, so editors can jump to it; a
 * warning says so after the position and names its rule at the end.
 */
export function formatDiagnostic(d: Diagnostic): string {
  const pointer = printable(d.pointer || "/");
  const message = printable(d.message);
  if (d.severity === "warning")
    return `${sourcePlace(d)}: warning: ${pointer}: ${message} [${d.rule}]`;
  return `${sourcePlace(d)}: ${pointer}: ${message}`;
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

/** A kind seen this many times or fewer is told in full: "a handful". */
const GROUP_AFTER = 5;
/** How many problems of a grouped kind are told in full before the line that counts the rest. */
const GROUP_SHOWN = 3;

/** A pointer with every list index replaced by `*`: the field, in whichever record it is. */
export function foldPointer(pointer: string): string {
  return pointer.replace(/\/\d+(?=\/|$)/g, "/*");
}

/** What makes two problems the same kind: the rule and the folded field path. */
export function diagnosticKind(d: Diagnostic): string {
  return `${d.rule} ${foldPointer(d.pointer)}`;
}

/** The rest of a grouped kind, told as one line: how many more, of how many, and where. */
export interface MoreOfAKind {
  readonly more: number;
  readonly total: number;
  readonly rule: string;
  /** The folded field path ("/" for the whole file). */
  readonly field: string;
  /** Where they are: the one file they are all in, else how many files ("12 files"). */
  readonly where: string;
}

/** One item of a grouped list: a problem told in full, or the rest of its kind. */
export type Grouped = { readonly diagnostic: Diagnostic } | MoreOfAKind;

/**
 * `diagnostics` (in the order to tell them) grouped by kind, the rule and the folded field path, as
 * every report tells them: a feed can have thousands of one kind, which nobody reads one a line.
 * A kind seen at most GROUP_AFTER times is told in full; any other kind as its first GROUP_SHOWN
 * and then the count of the rest, where its first problem falls.
 */
export function groupDiagnostics(diagnostics: readonly Diagnostic[]): Grouped[] {
  const byKind = new Map<string, Diagnostic[]>();
  for (const d of diagnostics) {
    const kind = diagnosticKind(d);
    const list = byKind.get(kind);
    if (list) list.push(d);
    else byKind.set(kind, [d]);
  }
  const items: Grouped[] = [];
  const told = new Set<string>();
  for (const d of diagnostics) {
    const kind = diagnosticKind(d);
    const all = byKind.get(kind)!;
    if (all.length <= GROUP_AFTER) {
      items.push({ diagnostic: d });
      continue;
    }
    if (told.has(kind)) continue;
    told.add(kind);
    items.push(...all.slice(0, GROUP_SHOWN).map((p) => ({ diagnostic: p })));
    const files = new Set(all.map((p) => p.file));
    items.push({
      more: all.length - GROUP_SHOWN,
      total: all.length,
      rule: d.rule,
      field: printable(foldPointer(d.pointer) || "/"),
      where: files.size === 1 ? d.file : `${thousands(files.size)} files`,
    });
  }
  return items;
}
