/**
 * Parses one YAML content file safely and keeps what is needed to point back into it, so a JSON
 * pointer into the data maps to the line and column of its node.
 *
 * Two parsers, one answer. js-yaml reads a file about fifteen times as fast as the yaml package
 * (yaml-fast.ts), with yaml's core schema (yaml-core-schema.ts) and a node index for positions
 * (yaml-nodes.ts). Whatever js-yaml refuses or reads in a way yaml may not, the yaml package reads
 * instead, as it read every file before: a file with a syntax fault (its problems then worded by
 * yaml-faults.ts, one per cause), anchors, a key that is not a string, a warning. So the data and
 * the positions are always yaml's (test/build/read/yaml-source.test.ts compares them on the samples,
 * generated content and the YAML test suite), and editing tools that rewrite documents in place
 * (migrate) still get yaml's document (parseYamlDocument).
 *
 * Safety: YAML 1.2 core schema only, so no custom or language-specific tags are ever constructed
 * (an unknown tag is an error here, not a string); duplicate keys are errors; alias expansion is
 * bounded (a "billion laughs" file fails fast); `__proto__` stays an ordinary own key.
 */
import type { Document, LineCounter } from "yaml";
import { atFileStart, type Diagnostic } from "../core/diagnostics.js";
import { readFast, type NodeIndex } from "./yaml-fast.js";
import { syntaxProblems } from "./yaml-faults.js";
import { yamlPackage } from "./yaml-package.js";
import {
  fastTree,
  IRREGULAR,
  linePosition,
  lineStarts,
  locateIn,
  locatorIn,
  yamlTree,
  type Position,
  type Tree,
} from "./yaml-nodes.js";

export type { Position } from "./yaml-nodes.js";

/** Most alias dereferences one file may make; legitimate sharing of opening hours needs far fewer. */
const MAX_ALIAS_COUNT = 1000;

export interface YamlSource {
  readonly file: string;
  /** The data, or undefined when the file could not be parsed. */
  readonly value: unknown;
  readonly diagnostics: Diagnostic[];
  /** Where the nodes are; read through `locate` and `locator`. */
  readonly positions: Positions;
}

/** A file as the yaml package parses it, for tools that edit the document in place. */
export interface YamlDocument {
  readonly file: string;
  readonly doc: Document.Parsed;
  readonly lines: LineCounter;
  /** The data, or undefined when the file could not be parsed. */
  readonly value: unknown;
  readonly diagnostics: Diagnostic[];
}

export function parseYaml(file: string, text: string): YamlSource {
  const fast = readFast(text);
  if (fast.leftToYaml === undefined) {
    return { file, value: fast.value, diagnostics: [], positions: new Positions(text, fast.nodes) };
  }
  const parsed = parseYamlDocument(file, text);
  return {
    file,
    value: parsed.value,
    diagnostics: parsed.diagnostics,
    positions: new Positions(text, undefined, parsed),
  };
}

/** Parses `text` with the yaml package: its document tree, line counter, data and problems. */
export function parseYamlDocument(file: string, text: string): YamlDocument {
  const { LineCounter, parseDocument } = yamlPackage();
  const lines = new LineCounter();
  const doc = parseDocument(text, {
    lineCounter: lines,
    schema: "core",
    // Under the core schema yaml also constructs `!!binary`, `!!timestamp`, `!!set`, `!!omap` and
    // `!!pairs` (a Buffer, a Date…); content has no use for them: they are unknown tags here.
    resolveKnownTags: false,
    uniqueKeys: true,
    prettyErrors: false,
    strict: true,
    // Its warnings (a key that is a list or a mapping…) go to the file's problems, not to stderr.
    logLevel: "error",
  });
  const diagnostics = syntaxProblems(file, text, [...doc.errors, ...doc.warnings], (offset) => {
    const { line, col } = lines.linePos(offset);
    return { line, column: col };
  });
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

/**
 * Where the nodes of one file are: from the fast reader's node index, or from yaml's document,
 * parsed the first time it is needed (a file the fast reader left to yaml has it already; one
 * whose node index does not line up with its data gets it on the first question it cannot answer).
 */
class Positions {
  private fast: Tree<number> | undefined;
  private slow: { tree: Tree<unknown>; lines: LineCounter } | undefined;
  private starts: number[] | undefined;

  constructor(
    private readonly text: string,
    nodes: NodeIndex | undefined,
    parsed?: YamlDocument,
  ) {
    if (nodes) this.fast = fastTree(nodes);
    if (parsed) this.slow = { tree: yamlTree(parsed.doc), lines: parsed.lines };
  }

  /** Which parser's tree answers: js-yaml's node index, or yaml's document. */
  get parser(): "js-yaml" | "yaml" {
    return this.fast ? "js-yaml" : "yaml";
  }

  /** Answers from the node index, or from yaml's tree where the index cannot. */
  ask(question: (tree: Tree<unknown>) => number | undefined): Position {
    if (this.fast) {
      try {
        const offset = question(this.fast);
        if (offset === undefined) return { line: 1, column: 1 };
        this.starts ??= lineStarts(this.text);
        return linePosition(this.starts, offset);
      } catch (error) {
        if (error !== IRREGULAR) throw error;
        this.fast = undefined;
      }
    }
    if (!this.slow) {
      const { doc, lines } = parseYamlDocument("", this.text);
      this.slow = { tree: yamlTree(doc), lines };
    }
    const offset = question(this.slow.tree);
    if (offset === undefined) return { line: 1, column: 1 };
    const { line, col } = this.slow.lines.linePos(offset);
    return { line, column: col };
  }
}

/**
 * Where the node at `pointer` starts. With `key` set, the position of the mapping key instead of
 * its value (for "this field is not allowed"). Walks as deep as the pointer exists and returns the
 * deepest position found, so a pointer to a missing field lands on its parent.
 */
export function locate(source: YamlSource, pointer: string, key = false): Position {
  return source.positions.ask((tree) => locateIn(tree, pointer, key));
}

/**
 * `locate` for many pointers into one file (the data-quality facts take a dozen per record): each
 * node on the way is found once and remembered by its pointer, and a line and column are worked
 * out only for the node asked for. Same answers as `locate(source, pointer)`.
 */
export function locator(source: YamlSource): (pointer: string) => Position {
  const { positions } = source;
  let tree: Tree<unknown> | undefined;
  let find: ((pointer: string) => number | undefined) | undefined;
  return (pointer) =>
    positions.ask((current) => {
      if (current !== tree) {
        tree = current;
        find = locatorIn(current);
      }
      return find!(pointer);
    });
}
