/**
 * One name, several spellings. A town, street or county that one brand writes with different
 * capitals or spacing in different records ("Hereford" and "HEREFORD"): consumers grouping the
 * brand's branches by town see two towns. Two brands' house styles are not one name written two
 * ways, nor are two streets of one name in two towns, so names are compared within a brand
 * (docs/decisions.md#names-are-compared-within-a-brand). And one brand whose BrandName differs
 * between data sets ("Bank Of Scotland" for ATMs, "Bank of Scotland" for branches): consumers
 * joining data sets by brand see two brands. Each inconsistency is one finding, with every
 * spelling, how often it is used and where, told at the first use of a less common spelling.
 */
import { normaliseName } from "../../contract/place.js";
import { finding, placeOf, someOf } from "./context.js";
import { textPointer, type Spot, type TextFact } from "./facts.js";
import type { ContentInPass, ContentRule, Finding } from "./rule.js";

/** One use of a name. */
interface NameUse {
  readonly field: string;
  readonly value: string;
  readonly file: string;
  /** Its brand, as brands are compared (brandKey). */
  readonly brand: string;
  /** Where it is: its text fact and its record's key and pointer, for spotOf. */
  readonly text: TextFact;
  readonly recordsKey: string;
  readonly at: string;
}

/** A use's place, worked out only when it is reported or named. */
const spotOf = (use: NameUse): Spot => ({
  ...use.text,
  pointer: textPointer(use.recordsKey, use.at, use.text),
});

// A brand is the same brand without its legal form or "UK" and whatever the punctuation: "Bank
// of Ireland (UK) Plc" and "Bank of Ireland UK" name one brand.
const LEGAL_WORDS = new Set(["plc", "ltd", "limited", "uk", "the"]);
const brandKey = (value: string) =>
  value
    .toLowerCase()
    .replace(/&/g, " and ")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== "" && !LEGAL_WORDS.has(word))
    .join(" ");

/** Groups `uses` by `key`, then each group by spelling, most used first (on a tie, first met). */
function spellings<T extends { readonly value: string }>(
  uses: readonly T[],
  key: (use: T) => string,
): [string, T[]][][] {
  const groups = new Map<string, Map<string, T[]>>();
  for (const use of uses) {
    const k = key(use);
    let forms = groups.get(k);
    if (!forms) groups.set(k, (forms = new Map<string, T[]>()));
    const same = forms.get(use.value);
    if (same) same.push(use);
    else forms.set(use.value, [use]);
  }
  return [...groups.values()]
    .filter((forms) => forms.size > 1)
    .map((forms) => [...forms].sort((a, b) => b[1].length - a[1].length));
}

const times = (n: number) => (n === 1 ? "once" : `${n.toLocaleString("en-GB")} times`);

type Forms = [string, NameUse[]][];

/** A file whose names in this many groups are in capitals where other files write them otherwise is one finding. */
const CAPITALS_FILE_GROUPS = 3;

const inCapitals = (value: string) =>
  value === value.toUpperCase() && value !== value.toLowerCase();

/**
 * The file that alone writes a name in capitals that other files write otherwise, if so: the
 * difference is then the file's, not the name's.
 */
function capitalsFile(forms: Forms): string | undefined {
  const capitals = forms.filter(([spelling]) => inCapitals(spelling));
  if (capitals.length !== 1 || capitals.length === forms.length) return undefined;
  const files = new Set(capitals[0]![1].map((u) => u.file));
  if (files.size !== 1) return undefined;
  const [file] = files;
  const elsewhere = forms.every(
    ([spelling, list]) => inCapitals(spelling) || list.every((u) => u.file !== file),
  );
  return elsewhere ? file : undefined;
}

/** Every use of a town, street or county name in the content, with its brand. */
function nameUses({ records }: ContentInPass): NameUse[] {
  const uses: NameUse[] = [];
  const brands = new Map<string, string>();
  for (const { file, dataset, brand, record } of records) {
    let key = brands.get(brand);
    if (key === undefined) brands.set(brand, (key = brandKey(brand)));
    for (const text of record.texts) {
      uses.push({
        field: text.field,
        value: text.value,
        file,
        brand: key,
        text,
        recordsKey: dataset.recordsKey!,
        at: record.pointer,
      });
    }
  }
  return uses;
}

/**
 * One warning per name a brand writes more than one way, at the first use of a less common
 * spelling; and one per file that writes in capitals many names the brand's other files write
 * otherwise.
 */
function checkSpellings(uses: readonly NameUse[]): Finding[] {
  const found: Finding[] = [];
  const byCapitalsFile = new Map<string, Forms[]>();
  const single: Forms[] = [];
  const nameKey = (use: NameUse) => `${use.brand}\0${use.field}\0${normaliseName(use.value)}`;
  for (const forms of spellings(uses, nameKey)) {
    const file = capitalsFile(forms);
    const key = file === undefined ? undefined : `${forms[0]![1][0]!.field}\0${file}`;
    const list = key === undefined ? undefined : byCapitalsFile.get(key);
    if (key === undefined) single.push(forms);
    else if (list) list.push(forms);
    else byCapitalsFile.set(key, [forms]);
  }
  for (const groups of byCapitalsFile.values()) {
    if (groups.length < CAPITALS_FILE_GROUPS) {
      single.push(...groups);
      continue;
    }
    const capitals = groups.map((forms) => forms.find(([spelling]) => inCapitals(spelling))!);
    const first = capitals
      .map(([, list]) => list[0]!)
      .reduce((a, b) => (spotOf(b).line < spotOf(a).line ? b : a));
    const names = someOf(
      groups.map((forms, i) => {
        const other = forms.find(([spelling]) => !inCapitals(spelling))![1][0]!;
        return `${JSON.stringify(capitals[i]![0])} (${JSON.stringify(other.value)} at ${placeOf(other.file, spotOf(other))})`;
      }),
    );
    found.push(
      finding(
        first.file,
        spotOf(first),
        `${first.field} is in capitals in this file for ${groups.length} names that other files write otherwise: ${names}; use one spelling for each`,
      ),
    );
  }
  for (const forms of single) {
    const use = forms[1]![1][0]!;
    const told = forms.map(([spelling, list]) => {
      const places = someOf(
        list.map((u) => placeOf(u.file, spotOf(u))),
        list === forms[0]![1] ? 1 : 3,
      );
      return `${JSON.stringify(spelling)} ${times(list.length)} (${places})`;
    });
    found.push(
      finding(
        use.file,
        spotOf(use),
        `${use.field} is written ${forms.length} ways: ${told.join(", ")}; use one spelling`,
      ),
    );
  }
  return found;
}

export const nameSpelling: ContentRule = {
  id: "name-spelling",
  scope: "content",
  text: "the same TownName, StreetName or CountrySubDivision written by one brand with other capitals or spacing, across its data sets; a file that writes many in capitals is one finding",
  check: (content) => checkSpellings(nameUses(content)),
};

/**
 * One warning per brand whose BrandName differs between data sets. Brands of one data set that
 * differ are separate brand files, and may be separate brands: they are left alone.
 */
export const brandSpelling: ContentRule = {
  id: "brand-spelling",
  scope: "content",
  text: 'one brand\'s `BrandName` written differently in different data sets ("Bank Of Scotland", "Bank of Scotland"; "(UK)", "plc", punctuation aside)',
  check({ brandNames }) {
    const found: Finding[] = [];
    for (const forms of spellings(brandNames, (use) => brandKey(use.value))) {
      const datasets = forms.map(([, list]) => new Set(list.map((u) => u.dataset)));
      const acrossDatasets = datasets.some((own, i) =>
        [...own].some((d) => datasets.some((other, j) => j !== i && !other.has(d))),
      );
      if (!acrossDatasets) continue;
      const use = forms[1]![1][0]!;
      const told = forms.map(
        ([spelling, list]) =>
          `${JSON.stringify(spelling)} in ${[...new Set(list.map((u) => u.dataset))].join(", ")} (${placeOf(list[0]!.file, list[0]!.spot)})`,
      );
      found.push(
        finding(
          use.file,
          use.spot,
          `one brand is written ${forms.length} ways across data sets: ${told.join("; ")}; write one BrandName everywhere, or consumers see ${forms.length} brands`,
        ),
      );
    }
    return found;
  },
};
