/**
 * The fast reader: js-yaml (4.x, with yaml's core schema from yaml-core-schema.ts) parses a
 * content file many times as fast as the yaml package's parseDocument (BENCHMARKS.md#build, row
 * "parsing content"), and its `listener` hands over each node as it is opened and closed. What the
 * listener keeps (where each node opens and closes, its kind, value and children) is enough to
 * find, later and only when asked, where the node at a JSON pointer starts, exactly where yaml
 * puts it (yaml-nodes.ts).
 *
 * The two parsers agree on what a document means except in corners where js-yaml is more lenient
 * or reads otherwise. A file that reaches one is not answered here but left to yaml (yaml-source.ts
 * reads it so), and the result is always yaml's. Found before parsing: see
 * leftToYamlBeforeParsing. Found while parsing: any fault js-yaml reports (yaml then says what and
 * where); a warning (an unknown `%` directive, deficient indentation in a flow collection); a key
 * that is not a string (`~: x`, `1: x`, `[a]: x`), which yaml writes as "" or as YAML text and
 * js-yaml as "null" or "a"; a comment stuck to a quoted value (`"x"#c`), which yaml refuses;
 * anchors, so that yaml's bound on alias expansion applies unchanged.
 */
import { load, type LoadOptions, type State } from "js-yaml";
import { YAML_CORE_SCHEMA } from "./yaml-core-schema.js";

/** What the listener keeps of each node, in the order nodes open (document order). */
export interface NodeIndex {
  /** js-yaml's input: the text without a leading byte-order mark. Offsets below are into it. */
  readonly input: string;
  /** 1 when a byte-order mark was taken off the text, so offsets into the text are one more. */
  readonly shift: number;
  /** Where js-yaml started reading the node: before any space and properties (`&a`, `!!str`). */
  readonly open: Int32Array;
  /** Where it stopped, after the node (and, for block collections, the space that follows). */
  readonly close: Int32Array;
  /** EMPTY, SCALAR, SEQUENCE or MAPPING. */
  readonly kind: Uint8Array;
  readonly result: unknown[];
  /** First child and next sibling, -1 for none: the tree as js-yaml composed it. */
  readonly firstChild: Int32Array;
  readonly nextSibling: Int32Array;
}

export const EMPTY = 0;
const SCALAR = 1;
export const SEQUENCE = 2;
export const MAPPING = 3;

/** The data and the node index, or why the file is left to yaml. */
export type FastRead =
  | { readonly value: unknown; readonly nodes: NodeIndex; readonly leftToYaml?: undefined }
  | { readonly leftToYaml: string };

// The parts of js-yaml's parser state the listener reads, beyond those @types/js-yaml declares.
interface ParserState extends State {
  readonly anchor: string | null;
  readonly anchorMap: Record<string, unknown>;
}

const COLON = 0x3a;
const HASH = 0x23;

/** Whether the next thing after `from`, past spaces, line breaks and comments, is a `:`. */
function colonFollows(input: string, from: number): boolean {
  let p = from;
  for (;;) {
    const c = input.charCodeAt(p);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) p++;
    else if (c === HASH) {
      while (p < input.length && input.charCodeAt(p) !== 0x0a && input.charCodeAt(p) !== 0x0d) p++;
    } else return c === COLON;
  }
}

/**
 * What in a text js-yaml reads otherwise than yaml, or accepts where yaml refuses, found before
 * parsing (the YAML test suite's cases in brackets):
 * - a tag, which js-yaml can drop unread when a block scalar follows it on a later line (M5C3);
 * - a tab at the start of a line: inside a block scalar (Y79Y), or as indentation;
 * - an explicit key (`? `), which may be a collection that js-yaml writes as "[object Object]";
 * - a line starting with `---` or `...` and more (82AN, 9KBC);
 * - a comment stuck to a flow indicator (CVW2);
 * - a flow collection (`[…]`, `{…}`) over several lines: the two differ on comments inside it;
 * - a block scalar with an indentation indicator (`|1`), indented otherwise at the top level;
 * - a backslash ending a line: in a double-quoted value it escapes the line break, and the empty
 *   lines after it are folded otherwise;
 * - a carriage return that does not end a line.
 * Each test runs only when the text holds its character at all, so a content file as the importer
 * writes it costs a few `indexOf` calls.
 */
function leftToYamlBeforeParsing(text: string): string | undefined {
  if (text.includes("!") && /(?:^|[\s[\]{},])!/m.test(text)) return "a tag";
  if (text.includes("\t") && /^ *\t/m.test(text)) return "a tab at the start of a line";
  if (text.includes("?") && /(?:^|[\s[{,])\?(?:\s|$)/m.test(text)) return "an explicit key (`?`)";
  if ((text.includes("---") || text.includes("...")) && /^(?:---|\.\.\.)[ \t]*[^\s#]/m.test(text))
    return "a document marker followed by content";
  if (text.includes("#") && /[,[\]{}]#/.test(text)) return "a comment right after a flow indicator";
  if ((text.includes("[") || text.includes("{")) && /[[{][^\]}\n]*$/m.test(text))
    return "a flow collection over several lines";
  if (
    (text.includes("|") || text.includes(">")) &&
    /(?:^|\s)[|>](?:[1-9][-+]?|[-+][1-9])/m.test(text)
  )
    return "a block scalar with an indentation indicator";
  if (text.includes("\\") && /\\\r?\n/.test(text)) return "a backslash at the end of a line";
  if (text.includes("\r") && /\r(?!\n)/.test(text))
    return "a carriage return that does not end a line";
  return undefined;
}

/**
 * Reads `text` with js-yaml, keeping the node index; or says why yaml must read it instead.
 * Over 80 lines on purpose: its listener runs once per node of every file parsed, and writes
 * the index's typed arrays as locals of this one closure; split into an object's methods, each
 * node would pay property loads on the hottest path of a cold build.
 */
export function readFast(text: string): FastRead {
  const before = leftToYamlBeforeParsing(text);
  if (before !== undefined) return { leftToYaml: before };
  // Typed arrays, grown by doubling: about one node per 20 bytes of content.
  let capacity = Math.max(64, text.length >> 4);
  let open = new Int32Array(capacity);
  let close = new Int32Array(capacity);
  let kind = new Uint8Array(capacity);
  let firstChild = new Int32Array(capacity);
  let nextSibling = new Int32Array(capacity);
  const result: unknown[] = [];
  let count = 0;
  // The nodes open now, and the last child of each so far.
  const stackNode: number[] = [];
  const stackLast: number[] = [];
  let unusual: string | undefined;
  let last: ParserState | undefined;
  const grow = () => {
    capacity *= 2;
    const more = <T extends Int32Array | Uint8Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(capacity);
      b.set(a);
      return b;
    };
    open = more(open);
    close = more(close);
    kind = more(kind);
    firstChild = more(firstChild);
    nextSibling = more(nextSibling);
  };
  const options: LoadOptions = {
    schema: YAML_CORE_SCHEMA,
    onWarning: (warning) => {
      unusual ??= `a warning: ${warning.reason}`;
    },
    listener: (event, state) => {
      if (event === "open") {
        if (count === capacity) grow();
        const node = count++;
        open[node] = state.position;
        firstChild[node] = -1;
        nextSibling[node] = -1;
        result.push(null);
        const depth = stackNode.length;
        if (depth > 0) {
          const previous = stackLast[depth - 1]!;
          if (previous < 0) firstChild[stackNode[depth - 1]!] = node;
          else nextSibling[previous] = node;
          stackLast[depth - 1] = node;
        }
        stackNode.push(node);
        stackLast.push(-1);
        return;
      }
      const node = stackNode.pop()!;
      stackLast.pop();
      const value = state.result as unknown;
      close[node] = state.position;
      const k = state.kind;
      kind[node] =
        k === "scalar" ? SCALAR : k === "mapping" ? MAPPING : k === "sequence" ? SEQUENCE : EMPTY;
      result[node] = value;
      last = state as ParserState;
      // A key js-yaml writes otherwise than yaml: null ("null" for yaml's ""), or a collection.
      if (typeof value !== "string" && colonFollows(state.input, state.position)) {
        unusual ??= "a key that is not a string";
      }
      if (k === "mapping" && Object.prototype.hasOwnProperty.call(value, "null")) {
        unusual ??= "a key that may be null";
      }
      if (state.input.charCodeAt(state.position) === HASH) {
        unusual ??= "a comment right after a value";
      }
    },
  };
  let value: unknown;
  try {
    value = load(text, options);
  } catch (error) {
    return { leftToYaml: `js-yaml: ${(error as Error).message.split("\n")[0]}` };
  }
  if (unusual !== undefined) return { leftToYaml: unusual };
  if (last !== undefined) {
    for (const _ in last.anchorMap) return { leftToYaml: "anchors" };
  }
  const shift = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const input = shift === 1 ? text.slice(1) : text;
  return {
    // js-yaml reads an empty text as undefined, yaml as null.
    value: value === undefined ? null : value,
    nodes: {
      input,
      shift,
      open: open.subarray(0, count),
      close: close.subarray(0, count),
      kind: kind.subarray(0, count),
      result,
      firstChild: firstChild.subarray(0, count),
      nextSibling: nextSibling.subarray(0, count),
    },
  };
}
