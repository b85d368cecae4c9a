/**
 * A revision as `npm run diff` and the guard build it (build/revision.ts): with site.yaml's
 * Sites, each data set compared as the content holds it, every brand once, whichever sites
 * publish it.
 */
import { afterEach, describe, expect, it } from "vitest";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { buildWorkTree } from "../../build/revision.js";
import { sampleFixture, type Fixture } from "../helpers/fixtures.js";

describe("a revision built for the change summary", () => {
  const fixtures: Fixture[] = [];
  afterEach(async () => {
    for (const fixture of fixtures.splice(0)) await fixture.cleanup();
  });

  it("with a site per brand and a group site, holds every brand of a data set once", async () => {
    const fixture = await sampleFixture();
    fixtures.push(fixture);
    const site = await readFile(join(fixture.content, "site.yaml"), "utf8");
    await fixture.put({
      "site.yaml": [
        site,
        "Sites:",
        "  - Name: group",
        "    Host: opendata.thistlecombe-group.example",
        "  - Name: thistlecombe",
        "    Host: api.thistlecombe.example",
        "    Brands: [Thistlecombe Bank]",
        "  - Name: pennyfold",
        "    Host: api.pennyfold.example",
        "    Brands: [Pennyfold Building Society]",
        "",
      ].join("\n"),
    });
    const built = await buildWorkTree(fixture.content, fixture.root, false);
    expect(built.problems).toEqual([]);
    const brandsOf = (id: "branches" | "atms") =>
      built.bodies
        .get(id)!
        .data.flatMap((d) => d.Brand.map((b) => b.BrandName))
        .sort();
    // Not the last site's alone (Pennyfold's), and not twice: the group's order, each once.
    const group = built.bodies.get("branches")!.data.flatMap((d) => d.Brand).length;
    expect(group).toBe(2);
    expect([...brandsOf("branches")].sort()).toEqual([
      "Pennyfold Building Society",
      "Thistlecombe Bank",
    ]);
    expect([...brandsOf("atms")].sort()).toEqual([
      "Pennyfold Building Society",
      "Thistlecombe Bank",
    ]);
  });
});
