/**
 * The links between ATMs and branches (build/quality/links.ts), compared within a brand, on a
 * crafted brand beside the sample content.
 */
import { describe, expect, it } from "vitest";
import {
  ATMS_SHOWN,
  BRANCHES_SHOWN,
  QUALITY_ATMS,
  QUALITY_BRANCHES,
  at,
  atm,
  branch,
  brandFile,
  onlyWarning,
  warningAt,
  warningsOf,
} from "../../helpers/quality.js";

describe("links between ATMs and branches", () => {
  it("atm-unknown-branch: warns at an ATM's Branch.Identification that names no branch of its brand", async () => {
    const atms = brandFile("ATM", [
      atm("QA-1", ['Country: "GB"'], ["Branch:", '  Identification: "QB-9"']),
      atm("QA-2", ['Country: "GB"'], ["Branch:", '  Identification: "QB-1"']),
    ]);
    const branches = brandFile("Branch", [branch("QB-1")]);
    const { where, message } = await onlyWarning({
      [QUALITY_ATMS]: atms,
      [QUALITY_BRANCHES]: branches,
    });
    expect(where).toEqual(warningAt("atm-unknown-branch", ATMS_SHOWN, at(atms, '"QB-9"')));
    expect(message).toBe('Branch.Identification "QB-9" names no branch of Quality Bank');
  });

  it("atm-unknown-branch: stays quiet when the brand publishes no branches to compare with", async () => {
    const atms = brandFile("ATM", [
      atm("QA-1", ['Country: "GB"'], ["Branch:", '  Identification: "QB-9"']),
    ]);
    expect(await warningsOf({ [QUALITY_ATMS]: atms })).toEqual([]);
  });

  it("branch-atm-not-linked: hints at a branch with an ATM that no ATM points back to", async () => {
    const atms = brandFile("ATM", [
      atm("QA-1", ['Country: "GB"'], ["Branch:", '  Identification: "QB-3"']),
    ]);
    const branches = brandFile("Branch", [
      branch("QB-2", ["ServiceAndFacility: [ExternalATM]"]),
      branch("QB-3", ["ServiceAndFacility: [InternalATM]"]),
    ]);
    const { where, message } = await onlyWarning({
      [QUALITY_ATMS]: atms,
      [QUALITY_BRANCHES]: branches,
    });
    expect(where).toEqual(
      warningAt("branch-atm-not-linked", BRANCHES_SHOWN, at(branches, 'Identification: "QB-2"')),
    );
    expect(message).toBe(
      "branch QB-2 lists an ATM among its services, but no ATM of Quality Bank names it in Branch.Identification",
    );
  });
});
