/**
 * The problems of a file the yaml package could not read, one per cause. One fault in an editor's
 * YAML (a line indented 3 spaces among lines indented 4, a tab) makes the parser report a cascade
 * down the file ("Sequence item without - indicator", "Implicit keys need to be on a single line",
 * "All mapping items must start at the same column" nine times), none of which says what to write.
 *
 * So: problems that stand alone (a duplicate key, an unknown tag, a second document) are each
 * reported; of the rest, only the first is, and what follows it is dropped as its cascade. That
 * first one is worded from the text around it when it is one of the faults editors make (the
 * lines before it are read for them, since the parser often notices a line late):
 * - a tab in a line's indentation;
 * - a quote that opens a value and is not closed;
 * - a key with no space after its colon (`Name:"x"`), or with no colon (`Name "x"`);
 * - a `-` among the fields of a mapping, or a list item out of line with the items before it;
 * - a line indented to no level the lines around it use, or deeper than its neighbour;
 * and otherwise it is the parser's own message, at its place.
 */
import type { ErrorCode, YAMLError } from "yaml";
import type { Diagnostic } from "../core/diagnostics.js";
import type { Position } from "./yaml-nodes.js";

/** Faults the parser recovers from: each is its own cause, and nothing cascades from it. */
const STANDALONE = new Set<ErrorCode>([
  "DUPLICATE_KEY",
  "TAG_RESOLVE_FAILED",
  "MULTIPLE_DOCS",
  "BAD_DIRECTIVE",
  "BAD_DQ_ESCAPE",
  "KEY_OVER_1024_CHARS",
  "MULTIPLE_ANCHORS",
  "MULTIPLE_TAGS",
  "NON_STRING_KEY",
]);

/** How many lines before the parser's place a fault is looked for (and one after it). */
const LOOK_BACK = 3;

/** The problems of a file, one per cause (see the module comment). */
export function syntaxProblems(
  file: string,
  text: string,
  problems: readonly YAMLError[],
  at: (offset: number) => Position,
): Diagnostic[] {
  const sorted = [...problems].sort((a, b) => a.pos[0] - b.pos[0]);
  const first = sorted.find((p) => !STANDALONE.has(p.code));
  const standalone = sorted.filter(
    (p) => STANDALONE.has(p.code) && (first === undefined || p.pos[0] < first.pos[0]),
  );
  const diagnostics: Diagnostic[] = standalone.map((problem) => ({
    file,
    ...at(problem.pos[0]),
    pointer: "",
    message: yamlMessage(problem.code, problem.message),
    rule: "yaml",
  }));
  if (first !== undefined) {
    const place = at(first.pos[0]);
    const fault = findFault(text, place.line);
    diagnostics.push({
      file,
      ...(fault ?? place),
      pointer: "",
      message: fault?.message ?? yamlMessage(first.code, first.message),
      rule: "yaml",
    });
  }
  return diagnostics;
}

/** Rewords the yaml package's messages where an editor would not know what they mean. */
function yamlMessage(code: string, message: string): string {
  const first = message.split("\n")[0] ?? message;
  switch (code) {
    case "DUPLICATE_KEY":
      return "this field appears twice in the same place; keep one";
    case "TAG_RESOLVE_FAILED":
      return `${first}; tags (!...) are not allowed in content files`;
    case "MULTIPLE_DOCS":
      return "a file holds one document; remove the extra `---` section";
    default:
      return `YAML syntax: ${first}`;
  }
}

interface Fault extends Position {
  readonly message: string;
}

/** One line of the text as the fault finders read it. */
interface Line {
  /** 1-based. */
  readonly number: number;
  readonly text: string;
  /** Leading spaces. */
  readonly indent: number;
  /** The text after the indentation. */
  readonly rest: string;
  /** Blank, or only a comment. */
  readonly empty: boolean;
}

function linesOf(text: string): Line[] {
  return text.split("\n").map((raw, i) => {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    const indent = /^ */.exec(line)![0].length;
    const rest = line.slice(indent);
    return { number: i + 1, text: line, indent, rest, empty: /^\s*(#.*)?$/.test(line) };
  });
}

/** The fault editors make that explains a parse failure noticed at line `near`, if one does. */
function findFault(text: string, near: number): Fault | undefined {
  const lines = linesOf(text);
  // The parser may also stop at the end of the line before the fault.
  const from = Math.max(1, near - LOOK_BACK);
  const to = Math.min(near + 1, lines.length);
  const window = lines.slice(from - 1, to).filter((l) => !l.empty || l.rest.startsWith("\t"));
  return (
    tabFault(window, lines) ??
    quoteFault(lines, to) ??
    colonFault(window) ??
    layoutFault(lines, from, to)
  );
}

// The key of a block mapping entry as editors write it: a plain word, then `:`.
const KEY = /^(- +)*([A-Za-z0-9_][A-Za-z0-9_.-]*)/;
// A line that holds a key (`Key:` or `Key: value`), quoted keys included.
const KEY_LINE = /^[^\s#'"-][^#]*?:(\s|$)|^["'][^"']*["']\s*:(\s|$)/;

/** A tab in the indentation of a line (YAML 1.2.2 section 6.1: indentation is spaces only). */
function tabFault(window: readonly Line[], lines: readonly Line[]): Fault | undefined {
  const line = window.find((l) => /^\s*\t/.test(l.text));
  if (!line) return undefined;
  const tab = line.text.indexOf("\t");
  const around = expectedIndent(lines, line);
  const use = around === undefined ? "" : `; use ${spaces(around)} like the lines around it`;
  return {
    line: line.number,
    column: tab + 1,
    message: `a tab at line ${line.number}: YAML indents with spaces${use}`,
  };
}

/**
 * The indentation `line` would have: one step in after a line that opens a block; one step out
 * from its own lines when it opens a block (`\tPostalAddress:` above `BuildingNumber` at 8
 * spaces: 6); else that of the entry of its kind just before it, or just after it; else the level
 * of its kind (a key's mapping, an item's list) open before it.
 */
function expectedIndent(lines: readonly Line[], line: Line): number | undefined {
  const step = indentStep(lines);
  const clean = (l: Line) => !l.empty && !l.text.includes("\t");
  const dashes = (text: string) => text.length - text.replace(/^(- +)+/, "").length;
  const body = line.text.trimStart();
  const kind = /^-(\s|$)/.test(body) ? "sequence" : "mapping";
  const { levels, opens } = walkLayout(lines, Infinity, line.number - 1).layout;
  const previous = lines
    .slice(0, line.number - 1)
    .filter(clean)
    .pop();
  if (previous === undefined) return 0;
  if (opens) return previous.indent + dashes(previous.rest) + step;
  const allowed = new Set(levels.filter((l) => l.kind === kind).map((l) => l.indent));
  const next = lines.slice(line.number).find(clean);
  // Where an entry of this kind sits on a neighbouring line: a key after any `- `, or an item.
  const entryOf = (l: Line) =>
    kind === "sequence"
      ? isDash(l)
        ? l.indent
        : undefined
      : KEY_LINE.test(l.rest.slice(dashes(l.rest)))
        ? l.indent + dashes(l.rest)
        : undefined;
  const candidates = [
    /:\s*(#.*)?$/.test(body) && next !== undefined ? next.indent - step - dashes(body) : undefined,
    entryOf(previous),
    next === undefined ? undefined : entryOf(next),
    // `- Key: value` followed by the item's other fields: the `-` sits before their column.
    next !== undefined && dashes(body) > 0 && !isDash(next)
      ? next.indent - dashes(body)
      : undefined,
  ];
  const found = candidates.find((n) => n !== undefined && allowed.has(n));
  return found ?? [...levels].reverse().find((l) => l.kind === kind)?.indent;
}

const spaces = (n: number) => `${n} space${n === 1 ? "" : "s"}`;

/**
 * A quoted value that is not closed: its quote then closes somewhere later (at the next value's
 * opening quote, typically), with more text after it, or never. A value quoted over several lines
 * that closes cleanly is valid YAML and passes.
 */
function quoteFault(lines: readonly Line[], to: number): Fault | undefined {
  let blockIndent = -1; // inside a block scalar (`|`, `>`): the indentation of its header line
  for (let i = 0; i < to; i++) {
    const line = lines[i]!;
    if (blockIndent >= 0) {
      if (line.empty || line.indent > blockIndent) continue;
      blockIndent = -1;
    }
    if (line.empty) continue;
    const value = /^((?:- +)*(?:[^\s#'"][^#]*?:\s+)?)(["'])/.exec(line.rest);
    if (!value) {
      if (/(?:^|[:-]\s+)[|>][-+0-9]*\s*(#.*)?$/.test(line.rest)) blockIndent = line.indent;
      continue;
    }
    const quote = value[2]!;
    const column = line.indent + value[1]!.length;
    const end = closingQuote(lines, i, column + 1, quote);
    if (end !== undefined) {
      const after = lines[end.line]!.text.slice(end.column + 1);
      // Closed on its own line, or on a later one with nothing after it: a valid value.
      if (end.line === i || /^\s*([,\]}]|#.*)?\s*$/.test(after)) {
        i = end.line;
        continue;
      }
    }
    const written = line.text.slice(column).trimEnd();
    return {
      line: line.number,
      column: column + 1,
      message: `the quote opened at line ${line.number} is not closed: end the value with ${quote} on the same line, as in \`${written}${quote}\``,
    };
  }
  return undefined;
}

/** Where the quote opened at `lines[line]` column `from - 1` closes: 0-based line and column. */
function closingQuote(
  lines: readonly Line[],
  line: number,
  from: number,
  quote: string,
): { line: number; column: number } | undefined {
  for (let i = line, start = from; i < lines.length; i++, start = 0) {
    const text = lines[i]!.text;
    for (let c = start; c < text.length; c++) {
      const ch = text[c];
      if (quote === '"' && ch === "\\") c++;
      else if (ch === quote) {
        if (quote === "'" && text[c + 1] === "'") c++;
        else return { line: i, column: c };
      }
    }
  }
  return undefined;
}

/** `Name:"x"` (no space after the colon) or `Name "x"` (no colon) among keys. */
function colonFault(window: readonly Line[]): Fault | undefined {
  for (const line of window) {
    const key = KEY.exec(line.rest);
    if (!key) continue;
    const name = key[2]!;
    const after = line.rest.slice(key[0].length);
    const column = line.indent + key[0].length;
    const value = (rest: string) => rest.replace(/\s+#.*$/, "").trim();
    if (/^:[^\s:/]/.test(after)) {
      return {
        line: line.number,
        column: column + 1,
        message: `a space is missing after the colon at line ${line.number}: write \`${name}: ${value(after.slice(1))}\``,
      };
    }
    const item = key[1] !== undefined;
    if (
      !item &&
      /^ +[^\s:#]/.test(after) &&
      !after.includes(": ") &&
      !after.trimEnd().endsWith(":")
    ) {
      return {
        line: line.number,
        column: column + 1,
        message: `line ${line.number} has no colon after ${name}: write \`${name}: ${value(after)}\``,
      };
    }
  }
  return undefined;
}

/** A block opened by a key or a `-`: the indentation of its entries and what they are. */
interface Level {
  readonly indent: number;
  readonly kind: "mapping" | "sequence";
  /** The line of its first entry. */
  readonly first: Line;
}

/** The blocks open after some line, and whether that line opens one more. */
interface BlockLayout {
  readonly levels: Level[];
  opens: boolean;
}

/**
 * The layout of the block lines up to `to`, level by level: a line indented to no open level, or
 * deeper than the line before it without that line opening a block, or a `-` among a mapping's
 * keys. Reported only from line `from` on; earlier oddities are taken as the continuation lines of
 * long values, which YAML allows.
 */
function layoutFault(lines: readonly Line[], from: number, to: number): Fault | undefined {
  return walkLayout(lines, from, to).fault;
}

/** The layout after line `to` (see layoutFault), and the first fault from line `from` on. */
function walkLayout(
  lines: readonly Line[],
  from: number,
  to: number,
): { fault?: Fault; layout: BlockLayout } {
  // `opens`: the previous line opened a block (`Key:`, `-`, or the document start).
  const layout: BlockLayout = { levels: [], opens: true };
  const { levels } = layout;
  let skipDeeperThan = -1; // inside a block scalar or a value continued on more lines
  for (let i = 0; i < to; i++) {
    const line = lines[i]!;
    if (line.empty || line.text.includes("\t")) continue;
    if (skipDeeperThan >= 0) {
      if (line.indent > skipDeeperThan) continue;
      skipDeeperThan = -1;
    }
    if (/^(---|\.\.\.)(\s|$)/.test(line.text)) {
      levels.length = 0;
      layout.opens = true;
      continue;
    }
    const reported = line.number >= from;
    const dash = isDash(line);
    const deepest = levels[levels.length - 1];
    if (deepest === undefined || line.indent > deepest.indent) {
      if (!layout.opens && deepest !== undefined) {
        if (reported) {
          return { fault: misindented(lines, line, levels.slice(0, -1), [deepest]), layout };
        }
        continue; // a long value continued on this line
      }
      enter(levels, line);
    } else {
      const popped: Level[] = [];
      while (levels.length > 0 && levels[levels.length - 1]!.indent > line.indent)
        popped.push(levels.pop()!);
      const level = levels[levels.length - 1];
      if (level === undefined || level.indent !== line.indent) {
        if (reported) return { fault: misindented(lines, line, levels, popped), layout };
        enter(levels, line);
      } else if (dash && level.kind === "mapping") {
        // `Key:` with its list at the key's own indentation is YAML; a `-` among keys is not.
        if (layout.opens) levels.push({ indent: line.indent, kind: "sequence", first: line });
        else if (reported) return { fault: strayDash(lines, line, popped), layout };
      } else if (!dash && level.kind === "sequence") {
        levels.pop(); // `Key:` followed by its list at the same indentation, now ended
        const parent = levels[levels.length - 1];
        if (parent?.indent !== line.indent && reported)
          return { fault: misindented(lines, line, levels, [level, ...popped]), layout };
      }
    }
    const body = line.rest.replace(/^(- +)+/, "");
    if (dash) {
      // `- Key: value` opens the item's mapping at the key's column.
      const keyColumn = line.indent + (line.rest.length - body.length);
      if (KEY.test(body) && /:(\s|$)/.test(body)) {
        levels.push({ indent: keyColumn, kind: "mapping", first: line });
      }
    }
    const value = body.replace(/^[^:]*:(\s|$)/, "");
    layout.opens = opensBlock(line);
    // A block scalar's text, or a quoted value or flow collection left open, is not layout.
    if (/^[|>][-+0-9]*\s*(#.*)?$/.test(value) || /^["'[{]/.test(value)) {
      const closed = /^[|>]/.test(value) ? false : balanced(value);
      if (!closed) skipDeeperThan = line.indent;
    }
  }
  return { layout };
}

/** Opens the block that `line` is the first entry of. */
function enter(levels: Level[], line: Line): void {
  const dash = /^-(\s|$)/.test(line.rest);
  levels.push({ indent: line.indent, kind: dash ? "sequence" : "mapping", first: line });
}

/** Whether a quoted value or a flow collection ends on its line. */
function balanced(value: string): boolean {
  const quote = value[0];
  if (quote === '"' || quote === "'") {
    return closingQuote([{ text: value } as Line], 0, 1, quote) !== undefined;
  }
  let depth = 0;
  for (const ch of value) {
    if (ch === "[" || ch === "{") depth++;
    else if (ch === "]" || ch === "}") depth--;
  }
  return depth <= 0;
}

/**
 * `line` sits at no level open before it. Which line is out of place, and by how much, is told
 * from its neighbours: the levels on either side of it, what they hold (a key cannot join a list's
 * items), the lines that follow, and the step the file indents by (2 spaces, mostly). The entry
 * that opened the level next to it is the odd one out when it is alone at that level and off the
 * step while `line` is on it (`Site:` then `Identification` at 7 spaces and `Name` at 8), or when
 * the lines after `line` share its indentation (`- "en"` at 7 spaces, then `- "cy"`, `- "pl"` at 6).
 */
function misindented(
  lines: readonly Line[],
  line: Line,
  levels: readonly Level[],
  popped: readonly Level[],
): Fault {
  const below = levels[levels.length - 1];
  const above = popped[popped.length - 1];
  // Every level open before `line`, shallowest first.
  const open = [...levels, ...[...popped].reverse()];
  const parentOf = (level: Level) => open[open.indexOf(level) - 1]?.indent ?? -indentStep(lines);
  const following = lines.slice(line.number).filter((l) => !l.empty);
  // A value where list items follow: the first item without its `-`.
  if (
    above !== undefined &&
    isDash(line) &&
    !isDash(above.first) &&
    !KEY_LINE.test(above.first.rest)
  ) {
    return {
      line: above.first.number,
      column: above.first.indent + 1,
      message: `line ${above.first.number} is a list item without its "-": write \`- ${above.first.rest.trim()}\``,
    };
  }
  const step = indentStep(lines);
  const alone = (level: Level, indent: number) =>
    !lines
      .slice(level.first.number, line.number - 1)
      .some((l) => !l.empty && l.indent === indent && !l.text.includes("\t"));
  for (const level of [above, below]) {
    if (level === undefined) continue;
    const first = level.first;
    if (sameKind(first, line) && first.indent === level.indent) {
      // Two entries of one block at two indentations: the one off the step is out of place.
      const parent = parentOf(level);
      const next = following.find((l) => l.indent <= line.indent);
      const thisOneFollows =
        level === above && next?.indent === line.indent && sameKind(next, line);
      const thisOneIsAStep = line.indent - parent === step && level.indent - parent !== step;
      if (alone(level, level.indent) && (thisOneFollows || thisOneIsAStep)) {
        return indentFault(first, line.indent);
      }
    } else if (isDash(first) && !isDash(line) && level.kind === "mapping") {
      // The fields of a list's first item: `- Key: value`, then `Key: value` under `Key`. When
      // the fields after the first sit one step in, the `-` is what is out of place.
      const items = open.find((l) => l.kind === "sequence" && l.first === first);
      const implied = line.indent - (level.indent - first.indent);
      if (items !== undefined && alone(items, items.indent)) {
        const parent = parentOf(items);
        if (implied - parent === step && first.indent - parent !== step) {
          return indentFault(first, implied);
        }
      }
    }
  }
  const levelsAround = [below, above].filter((l): l is Level => l !== undefined);
  if (levelsAround.length === 0) return indentFault(line, 0);
  const kind = isDash(line) ? "sequence" : "mapping";
  const fitting = levelsAround.filter((l) => l.kind === kind);
  const candidates = (fitting.length > 0 ? fitting : levelsAround).map((l) => l.indent);
  const distance = (n: number) => Math.abs(n - line.indent);
  const nearest = Math.min(...candidates.map(distance));
  const close = candidates.filter((n) => distance(n) === nearest);
  if (close.length === 1) return indentFault(line, close[0]!);
  // Between two levels as near: for a line that opens a block, the one its own lines imply;
  // else the level of the entries just above it, which the editor was most likely writing.
  const inner = following[0];
  if (opensBlock(line) && inner !== undefined && inner.indent > line.indent) {
    const implied = inner.indent - step;
    if (close.includes(implied)) return indentFault(line, implied);
  }
  return indentFault(line, Math.max(...close));
}

/** The step the file indents a block by, most often (2 when it cannot tell). */
function indentStep(lines: readonly Line[]): number {
  const counts = new Map<number, number>();
  let previous: Line | undefined;
  for (const line of lines) {
    if (line.empty) continue;
    if (previous && opensBlock(previous) && line.indent > previous.indent) {
      const step = line.indent - previous.indent;
      counts.set(step, (counts.get(step) ?? 0) + 1);
    }
    previous = line;
  }
  let best = 2;
  for (const [step, count] of counts) if (count > (counts.get(best) ?? 0)) best = step;
  return best;
}

const isDash = (l: Line) => /^-(\s|$)/.test(l.rest);
const opensBlock = (l: Line) => /:\s*(#.*)?$/.test(l.rest) || /^-\s*$/.test(l.rest);
const sameKind = (a: Line, b: Line) => isDash(a) === isDash(b);

function indentFault(line: Line, use: number): Fault {
  return {
    line: line.number,
    column: line.indent + 1,
    message: `line ${line.number} is indented ${spaces(line.indent)}; the lines around it use ${use}`,
  };
}

/** A `-` among the keys of a mapping, or a list item that lost its indentation. */
function strayDash(lines: readonly Line[], line: Line, popped: readonly Level[]): Fault {
  const items = popped.find((l) => l.kind === "sequence");
  const body = line.rest.replace(/^-\s*/, "");
  // A value (not a field) right after a list's items: an item of that list, dedented.
  if (items !== undefined && body !== "" && !KEY_LINE.test(body)) {
    return {
      line: line.number,
      column: line.indent + 1,
      message: `line ${line.number} is indented ${spaces(line.indent)}; the list items above it use ${items.indent}`,
    };
  }
  const fix = body === "" ? "remove the line" : `remove the "-" before ${body.split(":")[0]}`;
  return {
    line: line.number,
    column: line.indent + 1,
    message: `line ${line.number} starts a list item ("-") among the fields of a mapping: ${fix}`,
  };
}
