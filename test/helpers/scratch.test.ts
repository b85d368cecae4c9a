/**
 * The tests' scratch folders (scratch.ts): on a memory file system when the machine has one,
 * never over a TMPDIR someone set, and removed at the end.
 */
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { removeMemoryScratch, useMemoryScratch } from "./scratch.js";

describe("the tests' scratch folder", () => {
  it("leaves a TMPDIR that is set as it is", () => {
    const env: NodeJS.ProcessEnv = { TMPDIR: "/somewhere/else" };
    expect(useMemoryScratch(env)).toBeUndefined();
    expect(env).toEqual({ TMPDIR: "/somewhere/else" });
  });

  it("is a new folder under /dev/shm when TMPDIR is unset, named for the teardown, which removes it; nothing where there is no /dev/shm", () => {
    const env: NodeJS.ProcessEnv = {};
    const folder = useMemoryScratch(env);
    if (process.platform !== "linux" || !existsSync("/dev/shm")) {
      expect(folder).toBeUndefined();
      expect(env).toEqual({});
      return;
    }
    expect(folder).toMatch(/^\/dev\/shm\/opendata-edge-test-/);
    expect(env.TMPDIR).toBe(folder);
    expect(existsSync(folder!)).toBe(true);
    // Once per run: a second call (a worker that loads the configuration again) makes no other.
    expect(useMemoryScratch(env)).toBeUndefined();
    removeMemoryScratch(env);
    expect(existsSync(folder!)).toBe(false);
  });
});
