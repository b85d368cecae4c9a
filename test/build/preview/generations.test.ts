import { describe, expect, it } from "vitest";
import { Generations } from "../../../build/preview/generations.js";
import { manifest } from "../../helpers/preview-fixtures.js";

describe("the generations the preview's Worker reads (contract/preview.ts)", () => {
  const files = (text: string) => [{ path: "std/v2.2/branches.json", bytes: text }];
  const current = (generations: Generations, have = "") =>
    generations.answer(new Request(`http://preview.invalid/current?have=${have}`));
  const file = (generations: Generations, id: string, asset: string) =>
    generations.answer(
      new Request(`http://preview.invalid/files/${encodeURIComponent(id)}${asset}`),
    );

  it("names the current generation, sends its manifest only to a reader that has not seen it", async () => {
    const generations = new Generations();
    expect(current(generations).status).toBe(503);
    const id = generations.publish({ manifest, files: files("{}"), built: true });
    const first = current(generations);
    expect(first.status).toBe(200);
    expect(first.headers.get("Preview-Generation")).toBe(id);
    expect(await first.json()).toEqual({ id, built: true, manifest });
    const again = current(generations, id);
    expect(again.status).toBe(204);
    expect(again.headers.get("Preview-Generation")).toBe(id);
  });

  it("keeps serving a generation's files after a newer one is published, each its own bytes", async () => {
    const generations = new Generations();
    const old = generations.publish({ manifest, files: files("{}"), built: true });
    const next = generations.publish({ manifest, files: files("[]"), built: true });
    expect(next).not.toBe(old);
    const bytes = async (id: string) => {
      const answer = file(generations, id, "/std/v2.2/branches.json");
      expect(answer.headers.get("Content-Length")).toBe("2");
      return answer.text();
    };
    expect(await bytes(old)).toBe("{}");
    expect(await bytes(next)).toBe("[]");
    expect(file(generations, next, "/nothing.json").status).toBe(404);
    expect(file(generations, "never", "/std/v2.2/branches.json").status).toBe(404);
  });
});
