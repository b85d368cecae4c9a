/**
 * JSON as tests read it: parsed values typed as JSON (never `any`), and read or changed at a JSON
 * Pointer (RFC 6901), so a test looks into a body or a document, or breaks one thing in a sample,
 * by the same pointers the schemas' errors carry. A pointer that leads nowhere throws, naming how
 * far it got, so a test with a wrong path fails saying where rather than on `undefined`.
 */

/** A JSON value: what JSON.parse returns, and what a YAML reader gives for the content. */
export type Json = null | boolean | number | string | Json[] | JsonObject;
export interface JsonObject {
  [key: string]: Json;
}

/** The spec's response envelope (both specs, "Response structure"): meta, and data[].Brand[]. */
export type Envelope = {
  meta: JsonObject;
  data: { Brand: JsonObject[] }[];
};

/** JSON text (or its UTF-8 bytes) as a JSON value. */
/** A value as JSON.stringify writes it, in UTF-8: what a published body's bytes are (RFC 8259). */
export function jsonBytes(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value), "utf8");
}

export function parseJson(text: string | Uint8Array): Json {
  return JSON.parse(typeof text === "string" ? text : Buffer.from(text).toString("utf8")) as Json;
}

/** JSON text (or its UTF-8 bytes) as a response envelope; throws where it has another shape. */
export function parseEnvelope(text: string | Uint8Array): Envelope {
  const value = parseJson(text);
  objectAt(value, "/meta");
  arrayAt(value, "/data").forEach((_, i) => {
    arrayAt(value, `/data/${i}/Brand`).forEach((__, b) => objectAt(value, `/data/${i}/Brand/${b}`));
  });
  return value as Envelope;
}

/** A pointer from its reference tokens, `~` and `/` escaped (RFC 6901 section 3). */
export function pointer(...tokens: readonly (string | number)[]): string {
  return tokens.map((t) => "/" + String(t).replace(/~/g, "~0").replace(/\//g, "~1")).join("");
}

function tokensOf(path: string): string[] {
  if (path === "") return [];
  if (!path.startsWith("/")) throw new Error(`${JSON.stringify(path)} is not a JSON pointer`);
  return path
    .slice(1)
    .split("/")
    .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** One step down (RFC 6901 section 4): an object's member, or a list's item by its index. */
function child(node: Json, token: string): Json | undefined {
  if (Array.isArray(node)) return /^(0|[1-9]\d*)$/.test(token) ? node[Number(token)] : undefined;
  if (node !== null && typeof node === "object" && Object.hasOwn(node, token)) return node[token];
  return undefined;
}

function kindOf(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** The value at `path` in `root`, or undefined where there is none. */
export function find(root: unknown, path: string): Json | undefined {
  let node = root as Json | undefined;
  for (const token of tokensOf(path)) node = node === undefined ? undefined : child(node, token);
  return node;
}

/** The value at `path` in `root`; throws, saying how far it got, where there is none. */
export function at(root: unknown, path: string): Json {
  const tokens = tokensOf(path);
  let node = root as Json;
  tokens.forEach((token, i) => {
    const next = child(node, token);
    if (next === undefined) {
      const reached = pointer(...tokens.slice(0, i)) || "the root";
      throw new Error(`nothing at ${path}: ${reached} is ${kindOf(node)} without ${token}`);
    }
    node = next;
  });
  return node;
}

function expected<T extends Json>(
  root: unknown,
  path: string,
  what: string,
  is: (value: Json) => value is T,
): T {
  const value = at(root, path);
  if (!is(value)) throw new Error(`${path || "the root"} is ${kindOf(value)}, not ${what}`);
  return value;
}

/** The object at `path` in `root`, to read or change in place; throws where it is not one. */
export function objectAt(root: unknown, path: string): JsonObject {
  return expected(
    root,
    path,
    "an object",
    (v): v is JsonObject => v !== null && typeof v === "object" && !Array.isArray(v),
  );
}

/** The list at `path` in `root`, to read or change in place; throws where it is not one. */
export function arrayAt(root: unknown, path: string): Json[] {
  return expected(root, path, "a list", (v): v is Json[] => Array.isArray(v));
}

/** The string at `path` in `root`; throws where it is not one. */
export function stringAt(root: unknown, path: string): string {
  return expected(root, path, "a string", (v): v is string => typeof v === "string");
}
