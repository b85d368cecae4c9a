import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { displayPath } from "../../../build/core/paths.js";

describe("displayPath", () => {
  it("prints a file below the working folder relative to it, with / between folders", () => {
    expect(displayPath("/work/site", join("/work/site", "content", "atms", "a.yaml"))).toBe(
      "content/atms/a.yaml",
    );
  });

  it("prints a file outside the working folder with .. segments", () => {
    expect(displayPath("/work/site/sub", "/work/site/content/site.yaml")).toBe(
      "../content/site.yaml",
    );
  });

  it('prints the working folder itself as "."', () => {
    expect(displayPath("/work/site", "/work/site")).toBe(".");
  });
});
