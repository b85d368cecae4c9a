import { describe, expect, it } from "vitest";
import { InternalError, within, withinSync } from "../../../build/core/internal-error.js";

describe("an internal error", () => {
  it("names every boundary it crossed, innermost first, and the first line of what was thrown", async () => {
    const thrown = await within("site tb", () =>
      within("step 9 (documents)", () =>
        withinSync("the example of /x-std/v2.2/atms/changes", () => {
          throw new Error("no answer\n    at somewhere (file.js:1:1)");
        }),
      ),
    ).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(InternalError);
    const error = thrown as InternalError;
    expect(error.where).toEqual([
      "the example of /x-std/v2.2/atms/changes",
      "step 9 (documents)",
      "site tb",
    ]);
    expect(error.message).toBe(
      "internal error in the example of /x-std/v2.2/atms/changes; in step 9 (documents); in site tb: no answer",
    );
    expect((error.cause as Error).message).toContain("at somewhere");
  });

  it("passes a result through untouched", async () => {
    expect(await within("step 8 (history)", () => Promise.resolve(42))).toBe(42);
    expect(withinSync("step 2 (check) of content/site.yaml", () => "checked")).toBe("checked");
  });
});
