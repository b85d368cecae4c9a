/**
 * File and folder names from brand names and split values, in the style of the sample content
 * (`Pennyfold Building Society` → `pennyfold-building-society`): lower case ASCII letters and
 * digits, words joined by single hyphens.
 */

/** The name used when a value has no letter or digit to make a name from. */
const EMPTY_SLUG = "unnamed";

/** `St. Ives` → `st-ives`, `Ashby-de-la-Zouch` → `ashby-de-la-zouch`, `Łódź Café` → `odz-cafe`. */
export function slugify(text: string): string {
  const slug = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "") // the accents NFKD split off
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return slug === "" ? EMPTY_SLUG : slug;
}
