import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { codeHash } from "../../../build/core/code-fingerprint.js";

const folders: string[] = [];
afterAll(() => Promise.all(folders.map((f) => rm(f, { recursive: true, force: true }))));

/** Writes `modules` (name to text) in a folder of its own and gives each one's URL. */
async function modulesIn(modules: Record<string, string>): Promise<Record<string, URL>> {
  const dir = await mkdtemp(join(tmpdir(), "opendata-edge-code-hash-"));
  folders.push(dir);
  const urls: Record<string, URL> = {};
  for (const [name, text] of Object.entries(modules)) {
    await mkdir(join(dir, name, ".."), { recursive: true });
    await writeFile(join(dir, name), text);
    urls[name] = pathToFileURL(join(dir, name));
  }
  return urls;
}

const entry = 'import { b } from "./lib/b.js";\nexport const a = b + 1;\n';

describe("the hash of the code a result is kept by", () => {
  it("changes when a module the entry imports changes, however deep", async () => {
    const one = await modulesIn({ "a.js": entry, "lib/b.js": "export const b = 1;\n" });
    const two = await modulesIn({ "a.js": entry, "lib/b.js": "export const b = 2;\n" });
    expect(codeHash([one["a.js"]!])).not.toBe(codeHash([two["a.js"]!]));
  });

  it("is the same for the same code in another folder, so a moved checkout keeps its cache", async () => {
    const one = await modulesIn({ "a.js": entry, "lib/b.js": "export const b = 1;\n" });
    const moved = await modulesIn({ "a.js": entry, "lib/b.js": "export const b = 1;\n" });
    expect(codeHash([one["a.js"]!])).toBe(codeHash([moved["a.js"]!]));
  });

  it("does not change with a module the entries do not import", async () => {
    const one = await modulesIn({ "a.js": entry, "lib/b.js": "export const b = 1;\n" });
    const other = await modulesIn({
      "a.js": entry,
      "lib/b.js": "export const b = 1;\n",
      "c.js": "export const c = 3;\n",
    });
    expect(codeHash([one["a.js"]!])).toBe(codeHash([other["a.js"]!]));
    expect(codeHash([other["a.js"]!, other["c.js"]!])).not.toBe(codeHash([other["a.js"]!]));
  });
});
