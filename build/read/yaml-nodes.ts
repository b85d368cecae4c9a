/**
 * Where the node at a JSON pointer starts, in either of two trees: the fast reader's node index
 * (yaml-fast.ts) or the yaml package's document. Both answer as yaml's `range[0]` does: a scalar
 * at its first character (a quote, `|` or `>` included; its tag and anchor not), a block mapping at
 * its first key, a block sequence at its first `-`, a flow collection at its bracket, an empty
 * value just after the `:` or `-` before it and the spaces that follow. Offsets become a line and
 * a column as yaml's LineCounter makes them.
 *
 * The node index is js-yaml's composition, which is not always one node per YAML node: an item of
 * a block sequence is first tried as a mapping and the try stays behind as a child, an empty item
 * after a line break has no node, `{a}` has no value node. Wherever what the index holds does not
 * line up with the data (a mapping without one key and one value node per pair, a sequence
 * without one node per item, an empty value after a line break), the tree says so by throwing
 * IRREGULAR, and yaml-source.ts then asks yaml's tree for that file.
 */
import type { Document, Node } from "yaml";
import { pointerSegments } from "../core/json-pointer.js";
import { EMPTY, MAPPING, SEQUENCE, type NodeIndex } from "./yaml-fast.js";
import { yamlPackage } from "./yaml-package.js";

/** A line and column in a file's text, counted from 1 as yaml's LineCounter counts them. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

/** What a tree gives the walk along a pointer; `N` is its node. */
export interface Tree<N> {
  readonly root: N | undefined;
  /** Offset in the text where `node` starts, or undefined when the tree has no place for it. */
  start(node: N): number | undefined;
  /**
   * For a mapping, the key and value of the pair whose key reads `segment`; for a sequence, the
   * item at index `segment` (as `value`); undefined for a scalar or when there is no such child.
   */
  child(node: N, segment: string): { key: N | undefined; value: N | undefined } | undefined;
}

/** Thrown by the fast tree where its index does not line up with the data. */
export const IRREGULAR = new Error("the node index does not line up with the data");

/** The offset where the node at `pointer` starts (see locate in yaml-source.ts). */
export function locateIn<N>(tree: Tree<N>, pointer: string, key: boolean): number | undefined {
  let node = tree.root;
  let position = node === undefined ? undefined : tree.start(node);
  const segments = pointerSegments(pointer);
  for (const [index, segment] of segments.entries()) {
    const found = node === undefined ? undefined : tree.child(node, segment);
    const next = found?.value;
    const keyNode = found?.key;
    if (next === undefined && keyNode === undefined) break;
    const last = index === segments.length - 1;
    const target = key && last && keyNode !== undefined ? keyNode : (next ?? keyNode);
    position = (target === undefined ? undefined : tree.start(target)) ?? position;
    node = next;
  }
  return position;
}

/**
 * `locateIn` for many pointers into one tree: each node on the way is found once and remembered
 * by its pointer. Same answers as `locateIn(tree, pointer, false)`.
 */
export function locatorIn<N>(tree: Tree<N>): (pointer: string) => number | undefined {
  const root = tree.root;
  const rootStart = root === undefined ? undefined : tree.start(root);
  // Per pointer: the node there (undefined when missing) and the deepest node found on the way.
  const nodes = new Map<string, { node: N | undefined; found: N | undefined }>([
    ["", { node: root, found: root }],
  ]);
  const step = (pointer: string): { node: N | undefined; found: N | undefined } => {
    const known = nodes.get(pointer);
    if (known) return known;
    const cut = pointer.lastIndexOf("/");
    const parent = step(pointer.slice(0, cut));
    const raw = pointer.slice(cut + 1);
    const segment = raw.includes("~") ? pointerSegments(pointer.slice(cut))[0]! : raw;
    const pair = parent.node === undefined ? undefined : tree.child(parent.node, segment);
    const next = pair ? (pair.value ?? pair.key) : undefined;
    const entry = { node: next, found: next ?? parent.found };
    nodes.set(pointer, entry);
    return entry;
  };
  return (pointer) => {
    const found = step(pointer).found;
    return (found === undefined ? undefined : tree.start(found)) ?? rootStart;
  };
}

/** yaml's document as a tree: aliases are followed into their anchor's node. */
export function yamlTree(doc: Document.Parsed): Tree<Node> {
  const { isAlias, isMap, isPair, isScalar, isSeq } = yamlPackage();
  return {
    root: doc.contents ?? undefined,
    start: (node) => node.range?.[0],
    child(node, segment) {
      const target = isAlias(node) ? node.resolve(doc) : node;
      if (isMap(target)) {
        const pair = target.items.find(
          (p) => isPair(p) && isScalar(p.key) && String(p.key.value) === segment,
        );
        if (!pair) return undefined;
        const { key, value } = pair as { key: Node | null; value: Node | null };
        return { key: key ?? undefined, value: value ?? undefined };
      }
      if (isSeq(target)) {
        const item = target.items[Number(segment)] as Node | null | undefined;
        return { key: undefined, value: item ?? undefined };
      }
      return undefined;
    },
  };
}

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;

/** Past spaces, tabs, line breaks and comments. */
function skipSeparation(input: string, from: number): number {
  let p = from;
  for (;;) {
    const c = input.charCodeAt(p);
    if (c === SPACE || c === TAB || c === LF || c === CR) p++;
    else if (c === 0x23) {
      while (p < input.length && input.charCodeAt(p) !== LF && input.charCodeAt(p) !== CR) p++;
    } else return p;
  }
}

/** Past a tag or an anchor: up to the next space, line break or flow indicator. */
function skipProperty(input: string, from: number): number {
  let p = from + 1;
  for (;;) {
    const c = input.charCodeAt(p);
    if (
      Number.isNaN(c) ||
      c === SPACE ||
      c === TAB ||
      c === LF ||
      c === CR ||
      c === 0x2c ||
      c === 0x5b ||
      c === 0x5d ||
      c === 0x7b ||
      c === 0x7d
    )
      return p;
    p++;
  }
}

const isProperty = (c: number) => c === 0x21 || c === 0x26; // `!` or `&`

/** The fast reader's node index as a tree. Nodes are indexes into the index's arrays. */
export function fastTree(nodes: NodeIndex): Tree<number> {
  const { input, open, close, kind, result, firstChild, nextSibling } = nodes;
  const childrenCache = new Map<number, number[]>();

  // The node that holds the content: js-yaml's try of a sequence item as a mapping leaves the
  // item's node with one child that holds the same value (a collection's own items never do:
  // only an alias could, and files with anchors are left to yaml).
  const content = (node: number): number => {
    let n = node;
    for (;;) {
      const child = firstChild[n]!;
      if (child < 0 || nextSibling[child]! >= 0 || !Object.is(result[child], result[n])) return n;
      n = child;
    }
  };

  // The child nodes of a mapping (key, value, key, value…) or a sequence, checked against the data.
  const children = (node: number, mapping: boolean): number[] => {
    let list = childrenCache.get(node);
    if (list) return list;
    list = [];
    for (let c = firstChild[node]!; c >= 0; c = nextSibling[c]!) list.push(c);
    const value = result[node] as object;
    const expected = mapping ? 2 * Object.keys(value).length : (value as unknown[]).length;
    if (list.length !== expected) throw IRREGULAR;
    childrenCache.set(node, list);
    return list;
  };

  const start = (node: number): number => {
    const n = content(node);
    if (kind[n] === EMPTY) return emptyStart(n);
    // Where the content starts: past the space and the properties js-yaml read first.
    let p = skipSeparation(input, open[n]!);
    while (p < close[n]! && isProperty(input.charCodeAt(p))) {
      p = skipSeparation(input, skipProperty(input, p));
    }
    return p + nodes.shift;
  };

  // An empty value is where yaml puts it: after the last thing before it on its line (its `:` or
  // `-`, or its own tag) and the spaces after that. js-yaml opens it right after the indicator,
  // except where the indicator's line ends first: those are left to yaml.
  const emptyStart = (n: number): number => {
    const from = open[n]!;
    let back = from;
    while (back > 0 && (input.charCodeAt(back - 1) === SPACE || input.charCodeAt(back - 1) === TAB))
      back--;
    if (back === 0 || input.charCodeAt(back - 1) === LF || input.charCodeAt(back - 1) === CR)
      throw IRREGULAR;
    let end = from;
    let p = skipSeparation(input, from);
    while (p < close[n]! && isProperty(input.charCodeAt(p))) {
      end = skipProperty(input, p);
      p = skipSeparation(input, end);
    }
    while (input.charCodeAt(end) === SPACE || input.charCodeAt(end) === TAB) end++;
    return end + nodes.shift;
  };

  return {
    root: open.length > 0 ? 0 : undefined,
    start,
    child(node, segment) {
      const n = content(node);
      if (kind[n] === MAPPING) {
        const list = children(n, true);
        for (let i = 0; i < list.length; i += 2) {
          if (String(result[list[i]!]) === segment) return { key: list[i], value: list[i + 1] };
        }
        return undefined;
      }
      if (kind[n] === SEQUENCE) {
        return { key: undefined, value: children(n, false)[Number(segment)] };
      }
      return undefined;
    },
  };
}

/** Line starts of `text` (yaml's LineCounter makes the same: after each `\n`). */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}

/** The 1-based line and column of `offset`, as yaml's LineCounter.linePos gives them. */
export function linePosition(starts: readonly number[], offset: number): Position {
  let low = 0;
  let high = starts.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (starts[mid]! < offset) low = mid + 1;
    else high = mid;
  }
  if (starts[low] === offset) return { line: low + 1, column: 1 };
  if (low === 0) return { line: 0, column: offset };
  return { line: low, column: offset - starts[low - 1]! + 1 };
}
