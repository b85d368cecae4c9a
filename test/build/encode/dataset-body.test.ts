import { describe, expect, it } from "vitest";
import { DATASETS } from "../../../build/core/datasets.js";
import { envelope } from "../../../build/assemble/envelope.js";
import { DatasetBody, type BodyFacts } from "../../../build/encode/dataset-body.js";
import type { SiteSettings } from "../../../build/read/site.js";
import { madeBody } from "../../helpers/bodies.js";

const atms = DATASETS.find((d) => d.id === "atms")!;
const settings = {
  License: "https://example.org/licence",
  TermsOfUse: "https://example.org/terms",
} as SiteSettings;
const brand = (ids: string[]) => ({
  BrandName: "Wexbury Bank",
  ATM: ids.map((id) => ({ Identification: id })),
});

/** A body the cache gave back: the same facts, its bytes alone. */
const storedFacts = (body: DatasetBody, bytes = body.bytes): BodyFacts => ({ ...body, bytes });

describe("a data set's body taken from the cache", () => {
  it("is parsed from its bytes when first asked, and gives the published records' ranges", () => {
    const made = madeBody(
      atms,
      envelope(atms, [brand(["A", "B"])], settings, "2026-12-01T00:00:00Z"),
    );
    const stored = DatasetBody.stored(storedFacts(made));
    expect(stored.value()).toEqual(made.value());
    expect(stored.value()).not.toBe(made.value());
    expect(stored.slices()).toEqual(made.slices());
    expect(stored.recordHashes()).toEqual(made.recordHashes());
  });

  it("shares what a body of the same bytes from a build before worked out, instead of parsing again", () => {
    const made = madeBody(
      atms,
      envelope(atms, [brand(["A", "B"])], settings, "2026-12-01T00:00:00Z"),
    );
    const first = DatasetBody.stored(storedFacts(made));
    const again = DatasetBody.stored(storedFacts(made), first);
    const third = DatasetBody.stored(storedFacts(made), again);
    expect(again.value()).toBe(first.value());
    expect(third.value()).toBe(first.value());
    expect(third.recordHashes()).toBe(first.recordHashes());
    expect(third.slices()).toBe(first.slices());
  });

  it("ignores a body of other bytes given as the same", () => {
    const one = madeBody(atms, envelope(atms, [brand(["A"])], settings, "2026-12-01T00:00:00Z"));
    const two = madeBody(
      atms,
      envelope(atms, [brand(["A", "B"])], settings, "2026-12-01T00:00:00Z"),
    );
    const stored = DatasetBody.stored(storedFacts(two), one);
    expect(stored.value()).toEqual(two.value());
    expect(stored.recordHashes()).toHaveLength(2);
  });
});
