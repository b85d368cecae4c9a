/**
 * Parses one YAML content file safely and keeps what is needed to point back into it: the document
 * tree and a line counter, so a JSON pointer into the data maps to the line and column of its node.
 *
 * Safety: YAML 1.2 core schema only, so no custom or language-specific tags are ever constructed
 * (an unknown tag is an error here, not a string); duplicate keys are errors; alias expansion is
 * bounded (a "billion laughs" file fails fast); `__proto__` stays an ordinary own key.
 */
import { isAlias, isMap, isPair, isScalar, isSeq, LineCounter, parseDocument } from "yaml";
import type { Document, Node as YamlNode } from "yaml";
import { atFileStart, type Diagnostic } from "../core/diagnostics.js";
import { pointerSegments } from "../core/json-pointer.js";

/** Most alias dereferences one file may make; legitimate sharing of opening hours needs far fewer. */
export const MAX_ALIAS_COUNT = 1000;

export interface Position {
  readonly line: number;
  readonly column: number;
}

export interface YamlSource {
  readonly file: string;
  readonly doc: Document.Parsed;
  readonly lines: LineCounter;
  /** The data, or undefined when the file could not be parsed. */
  readonly value: unknown;
  readonly diagnostics: Diagnostic[];
}

export function parseYaml(file: string, text: string): YamlSource {
  const lines = new LineCounter();
  const doc = parseDocument(text, {
    lineCounter: lines,
    schema: "core",
    uniqueKeys: true,
    prettyErrors: false,
    strict: true,
  });
  const diagnostics: Diagnostic[] = [];
  const at = (offset: number) => lines.linePos(offset);
  for (const problem of [...doc.errors, ...doc.warnings]) {
    const { line, col } = at(problem.pos[0]);
    diagnostics.push({
      file,
      line,
      column: col,
      pointer: "",
      message: yamlMessage(problem.code, problem.message),
      rule: "yaml",
    });
  }
  let value: unknown;
  if (diagnostics.length === 0) {
    try {
      value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    } catch (error) {
      diagnostics.push(atFileStart(file, "yaml", `cannot be read: ${(error as Error).message}`));
    }
  }
  return { file, doc, lines, value, diagnostics };
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

/**
 * Where the node at `pointer` starts. With `key` set, the position of the mapping key instead of
 * its value (for "this field is not allowed"). Walks as deep as the pointer exists and returns the
 * deepest position found, so a pointer to a missing field lands on its parent.
 */
export function locate(source: YamlSource, pointer: string, key = false): Position {
  let node: unknown = source.doc.contents;
  let position = startOf(source, node) ?? { line: 1, column: 1 };
  const segments = pointerSegments(pointer);
  for (const [index, segment] of segments.entries()) {
    node = resolveAlias(source, node);
    let next: unknown;
    let keyNode: unknown;
    if (isMap(node)) {
      const pair = node.items.find(
        (p) => isPair(p) && isScalar(p.key) && String(p.key.value) === segment,
      );
      keyNode = pair?.key;
      next = pair?.value;
    } else if (isSeq(node)) {
      next = node.items[Number(segment)];
    }
    if (next === undefined && keyNode === undefined) break;
    const last = index === segments.length - 1;
    const target = key && last && keyNode !== undefined ? keyNode : (next ?? keyNode);
    position = startOf(source, target) ?? position;
    node = next;
  }
  return position;
}

/**
 * `locate` for many pointers into one file (the data-quality facts take a dozen per record): each
 * node on the way is found once and remembered by its pointer, and a line and column are worked
 * out only for the node asked for. Same answers as `locate(source, pointer)`.
 */
export function locator(source: YamlSource): (pointer: string) => Position {
  const root = source.doc.contents;
  const rootPosition = startOf(source, root) ?? { line: 1, column: 1 };
  // Per pointer: the node there (undefined when missing) and the deepest node found on the way.
  const nodes = new Map<string, { node: unknown; found: unknown }>([
    ["", { node: root, found: root }],
  ]);
  const step = (pointer: string): { node: unknown; found: unknown } => {
    const known = nodes.get(pointer);
    if (known) return known;
    const cut = pointer.lastIndexOf("/");
    const parent = step(pointer.slice(0, cut));
    const raw = pointer.slice(cut + 1);
    const segment = raw.includes("~") ? pointerSegments(pointer.slice(cut))[0]! : raw;
    let next: unknown;
    if (parent.node !== undefined) {
      const node = resolveAlias(source, parent.node);
      if (isMap(node)) {
        const pair = node.items.find(
          (p) => isPair(p) && isScalar(p.key) && String(p.key.value) === segment,
        );
        next = pair ? (pair.value ?? pair.key) : undefined;
      } else if (isSeq(node)) {
        next = node.items[Number(segment)];
      }
    }
    const entry = { node: next, found: next ?? parent.found };
    nodes.set(pointer, entry);
    return entry;
  };
  return (pointer) => startOf(source, step(pointer).found) ?? rootPosition;
}

function resolveAlias(source: YamlSource, node: unknown): unknown {
  return isAlias(node) ? node.resolve(source.doc) : node;
}

function startOf(source: YamlSource, node: unknown): Position | undefined {
  const range = (node as YamlNode | null | undefined)?.range;
  if (!range) return undefined;
  const { line, col } = source.lines.linePos(range[0]);
  return { line, column: col };
}
