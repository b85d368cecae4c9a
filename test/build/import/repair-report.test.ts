import { describe, expect, it } from "vitest";
import { languageCode } from "../../../build/import/repair.js";
import { repairLines, type FileRepair } from "../../../build/import/repair-report.js";

describe("telling the repairs", () => {
  const repair = (n: number, from: string, to: string): FileRepair => ({
    kind: "language",
    pointer: `/ATM/${n}/SupportedLanguages/0`,
    field: "SupportedLanguages",
    from,
    to,
    file: "content/atms/x.yaml",
  });
  const codes = ["eng", "spa", "ger", "fre", "wel", "eng"];
  const repairs = codes.map((c, i) => repair(i, c, languageCode(c)!));
  const at = (_: string, pointer: string) => ({
    line: 10 * Number(pointer.split("/")[2]) + 7,
    column: 9,
  });

  it("says each kind once, with its count, its distinct changes and its first places", () => {
    expect(repairLines(repairs, true, at)).toEqual([
      "repaired 6 language codes to ISO 639-1 (eng → en, spa → es, ger → de, fre → fr, wel → cy)",
      "  first at content/atms/x.yaml:7:9 /ATM/0/SupportedLanguages/0, content/atms/x.yaml:17:9 /ATM/1/SupportedLanguages/0, content/atms/x.yaml:27:9 /ATM/2/SupportedLanguages/0, …",
    ]);
  });

  it("says what it would repair when the repairs were not asked for", () => {
    expect(repairLines(repairs.slice(0, 1), false, at)).toEqual([
      "would repair 1 language code to ISO 639-1 (eng → en)",
      "  at content/atms/x.yaml:7:9 /ATM/0/SupportedLanguages/0",
    ]);
  });
});
