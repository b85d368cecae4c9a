import {
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rm,
  stat,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeAtomically, type OutputFile } from "../../../build/write/atomic.js";

let root: string | undefined;
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
  root = undefined;
});

async function folder(): Promise<{ root: string; out: string }> {
  root = await mkdtemp(join(tmpdir(), "opendata-edge-atomic-"));
  return { root, out: join(root, "dist") };
}

// A generation whose two files name the same version: a reader that sees them disagree has seen
// half of one write and half of another.
const version = (n: number): OutputFile[] => [
  { path: "manifest.json", bytes: JSON.stringify({ version: n }) },
  { path: "std/v2.2/branches.json", bytes: `{"version":${n},"pad":"${"x".repeat(20_000)}"}` },
];

const generations = async (dir: string) =>
  (await readdir(dir)).filter((name) => name.startsWith(".dist-gen-")).sort();

describe("writing the output folder", () => {
  it("makes the output path a link to a complete generation folder beside it", async () => {
    const { root, out } = await folder();
    const written = await writeAtomically(out, version(1));
    expect((await lstat(out)).isSymbolicLink()).toBe(true);
    expect(await realpath(out)).toBe(written.generation);
    expect(await readFile(join(out, "std/v2.2/branches.json"), "utf8")).toContain('"version":1');
    expect(await generations(root)).toHaveLength(1);
  });

  it("keeps the generation served before the last write, for readers still on it, and removes older ones", async () => {
    const { root, out } = await folder();
    const first = await writeAtomically(out, version(1));
    const second = await writeAtomically(out, version(2));
    expect(await readFile(join(first.generation, "manifest.json"), "utf8")).toBe('{"version":1}');
    const third = await writeAtomically(out, version(3));
    const kept = (await generations(root)).map((name) => join(root, name));
    expect(kept.sort()).toEqual([second.generation, third.generation].sort());
    expect(await readFile(join(out, "manifest.json"), "utf8")).toBe('{"version":3}');
  });

  it("links a file named by its bytes from the generation before, and writes it when that one lacks it", async () => {
    const { out } = await folder();
    const named = (bytes: string): OutputFile => ({
      path: "_changes/a/1f.json",
      bytes,
      reuse: true,
    });
    const link = { linkUnchanged: true };
    const first = await writeAtomically(out, [...version(1), named("answer")], link);
    // The same path again (so the same bytes, by its name): linked, not written.
    const second = await writeAtomically(out, [...version(2), named("not read when linked")], link);
    const [a, b] = await Promise.all(
      [first, second].map((g) => stat(join(g.generation, "_changes/a/1f.json"))),
    );
    expect(b!.ino).toBe(a!.ino);
    expect(await readFile(join(out, "_changes/a/1f.json"), "utf8")).toBe("answer");
    // A file not marked so is always written, even at a path the generation before has.
    const manifest = await Promise.all(
      [first, second].map((g) => stat(join(g.generation, "manifest.json"))),
    );
    expect(manifest[1]!.ino).not.toBe(manifest[0]!.ino);
    // Nothing before it to link from: written.
    const { out: fresh } = { out: join(root!, "fresh") };
    await writeAtomically(fresh, [named("written")], link);
    expect(await readFile(join(fresh, "_changes/a/1f.json"), "utf8")).toBe("written");
    // Without the option (the live preview), every file is written.
    const third = await writeAtomically(out, [...version(3), named("written again")]);
    expect(await readFile(join(third.generation, "_changes/a/1f.json"), "utf8")).toBe(
      "written again",
    );
  });

  it("replaces an output folder written before generations existed", async () => {
    const { root, out } = await folder();
    await mkdir(join(out, "std"), { recursive: true });
    await writeFile(join(out, "stale.json"), "{}");
    await writeAtomically(out, version(1));
    expect((await lstat(out)).isSymbolicLink()).toBe(true);
    expect(await readdir(out)).toEqual(["manifest.json", "std"]);
    expect((await readdir(root)).filter((name) => name.startsWith(".dist-old-"))).toEqual([]);
  });

  it("leaves the previous output exactly as it was when a file cannot be written", async () => {
    const { root, out } = await folder();
    const first = await writeAtomically(out, version(1));
    // A file and a folder at one path: the second cannot be written.
    const broken = [...version(2), { path: "manifest.json/inner", bytes: "x" }];
    await expect(writeAtomically(out, broken)).rejects.toThrow();
    expect(await realpath(out)).toBe(first.generation);
    expect(await readFile(join(out, "manifest.json"), "utf8")).toBe('{"version":1}');
    expect(await generations(root)).toHaveLength(1);
  });

  it("never lets a reader find the output missing or half of one write and half of another", async () => {
    const { out } = await folder();
    await writeAtomically(out, version(0));
    let writing = true;
    const seen: string[] = [];
    const reader = (async () => {
      // Bounded: at most 20,000 reads, and it stops when the writes are done.
      for (let i = 0; writing && i < 20_000; i++) {
        try {
          // Both files are this test's own, each with the write's version number.
          type Versioned = { version: number };
          const manifest = JSON.parse(
            await readFile(join(out, "manifest.json"), "utf8"),
          ) as Versioned;
          const body = JSON.parse(
            await readFile(join(out, "std/v2.2/branches.json"), "utf8"),
          ) as Versioned;
          // The body may be newer than the manifest (a write finished between the two reads),
          // never older, and never missing.
          if (body.version < manifest.version)
            seen.push(`body ${body.version} < ${manifest.version}`);
        } catch (error) {
          seen.push(String(error));
        }
      }
    })();
    for (let n = 1; n <= 30; n++) await writeAtomically(out, version(n));
    writing = false;
    await reader;
    expect(seen).toEqual([]);
  });
});
