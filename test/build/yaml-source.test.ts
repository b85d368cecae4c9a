import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CONTENT_DIR } from "../../build/core/paths.js";
import { pointerJoin } from "../../build/core/json-pointer.js";
import { locate, locator, parseYaml } from "../../build/read/yaml-source.js";

// Every pointer into a value: its containers and leaves, in document order.
function pointersOf(value: unknown, at = ""): string[] {
  if (Array.isArray(value))
    return [at, ...value.flatMap((v, i) => pointersOf(v, pointerJoin(at, i)))];
  if (value !== null && typeof value === "object") {
    return [at, ...Object.entries(value).flatMap(([k, v]) => pointersOf(v, pointerJoin(at, k)))];
  }
  return [at];
}

describe("locator", () => {
  it.each(["branches/pennyfold-building-society.yaml", "atms/thistlecombe-bank/north.yaml"])(
    "gives the same line and column as locate for every node of %s, and for missing ones",
    async (name) => {
      const source = parseYaml(name, await readFile(join(CONTENT_DIR, name), "utf8"));
      const pointers = pointersOf(source.value);
      const missing = pointers.slice(0, 50).map((p) => `${p}/NotThere/0`);
      const at = locator(source);
      for (const pointer of [...pointers, ...missing, "/Nothing"]) {
        expect([pointer, at(pointer)]).toEqual([pointer, locate(source, pointer)]);
      }
      expect(pointers.length).toBeGreaterThan(100);
    },
  );
});
