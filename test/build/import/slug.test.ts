import { describe, expect, it } from "vitest";
import { slugify } from "../../../build/import/slug.js";

describe("file names from brand names and values", () => {
  it.each([
    ["Pennyfold Building Society", "pennyfold-building-society"],
    ["Thistlecombe Bank", "thistlecombe-bank"],
    ["St. Ives", "st-ives"],
    ["Ashby-de-la-Zouch", "ashby-de-la-zouch"],
    ["  Café Zoë & Co. ", "cafe-zoe-co"],
    ["Ystrad Mynach (Caerffili)", "ystrad-mynach-caerffili"],
    ["M&S Bank", "m-s-bank"],
    ["123 Bank", "123-bank"],
    ["—", "unnamed"],
  ])("names %j %j", (text, slug) => {
    expect(slugify(text)).toBe(slug);
  });
});
