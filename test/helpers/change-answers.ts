/**
 * The reference for change answers, written in the tests on their own (never from build/): a
 * published body's records by brand as JSON texts, and the answer from one body to another as
 * the issue describes it (each record added or changed, whole; the Identifications removed).
 * Used by test/build/history/index.test.ts and long-history.test.ts.
 */
import { parseJson } from "./json.js";

/** Records by brand, each record its exact JSON text. */
export type Records = Map<string, string[]>;

export function recordsOf(body: string): Records {
  const parsed = JSON.parse(body) as { data: { Brand: { BrandName: string; ATM: unknown[] }[] }[] };
  const out: Records = new Map();
  for (const brand of parsed.data.flatMap((d) => d.Brand)) {
    out.set(brand.BrandName, [
      ...(out.get(brand.BrandName) ?? []),
      ...brand.ATM.map((r) => JSON.stringify(r)),
    ]);
  }
  return out;
}

export const idOf = (json: string) =>
  (JSON.parse(json) as { Identification: string }).Identification;

/**
 * The answer since `from` to `to` as the issue describes it, built here from the two bodies:
 * for the size bound of a version that was not kept, whose answer the build did not write.
 */
export function expectedAnswer(from: string, to: string): string {
  const [old, now] = [recordsOf(from), recordsOf(to)];
  const meta = (JSON.parse(to) as { meta: Record<string, unknown> }).meta;
  const brands: Record<string, unknown>[] = [];
  let total = 0;
  const names = [...now.keys(), ...[...old.keys()].filter((b) => !now.has(b))];
  for (const name of names) {
    const before = new Map((old.get(name) ?? []).map((j) => [idOf(j), j]));
    const after = now.get(name) ?? [];
    const listed = after.filter((j) => before.get(idOf(j)) !== j);
    const ids = new Set(after.map(idOf));
    const removed = [...before.keys()].filter((id) => !ids.has(id));
    if (listed.length === 0 && removed.length === 0) continue;
    total += listed.length + removed.length;
    brands.push({
      BrandName: name,
      ...(listed.length ? { ATM: listed.map((j) => parseJson(j)) } : {}),
      ...(removed.length ? { Removed: removed } : {}),
    });
  }
  return JSON.stringify({
    meta: {
      LastUpdated: meta.LastUpdated,
      Since: (JSON.parse(from) as { meta: { LastUpdated: string } }).meta.LastUpdated,
      TotalResults: total,
      Agreement: meta.Agreement,
      License: meta.License,
      TermsOfUse: meta.TermsOfUse,
    },
    data: brands.length ? [{ Brand: brands }] : [],
  });
}
