/** identifier-placeholder (build/quality/identifiers.ts) on crafted ATMs beside the sample content. */
import { describe, expect, it } from "vitest";
import {
  ATMS_SHOWN,
  QUALITY_ATMS,
  QUALITY_BRANCHES,
  at,
  atm,
  branch,
  brandFile,
  onlyWarning,
  warningAt,
} from "../../helpers/quality.js";

describe("identifier-placeholder", () => {
  it('warns at Branch.Identification "true", once for all, not at a real one, and not again as an unknown branch', async () => {
    const atms = brandFile("ATM", [
      atm("QA-1", ['Country: "GB"'], ["Branch:", '  Identification: "true"']),
      atm("QA-2", ['Country: "GB"'], ["Branch:", '  Identification: "true"']),
      atm("QA-3", ['Country: "GB"'], ["Branch:", '  Identification: "QB-1"']),
    ]);
    const { where, message } = await onlyWarning({
      [QUALITY_ATMS]: atms,
      [QUALITY_BRANCHES]: brandFile("Branch", [branch("QB-1")]),
    });
    expect(where).toEqual(warningAt("identifier-placeholder", ATMS_SHOWN, at(atms, '"true"')));
    expect(message).toBe(
      'Branch.Identification "true" is not an identifier, in 2 ATMs (QA-1, QA-2); give the Identification of the branch the ATM belongs to, or leave Branch out',
    );
  });

  it("warns at a record's own Identification that is no identifier, not at one that only contains a word like it", async () => {
    const atms = brandFile("ATM", [
      atm("N/A", ['Country: "GB"']),
      atm("NA-TRUE-1", ['Country: "GB"']),
    ]);
    const { where, message } = await onlyWarning({ [QUALITY_ATMS]: atms });
    expect(where).toEqual(warningAt("identifier-placeholder", ATMS_SHOWN, at(atms, '"N/A"')));
    expect(message).toBe(
      'Identification "N/A" is not an identifier; give each record its own identifier',
    );
  });
});
