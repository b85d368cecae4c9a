import { describe, expect, it } from "vitest";
import { planForPath } from "../../contract/rate-limits.js";
import { SPEC_PATHS } from "../helpers/spec-values.js";

describe("planForPath", () => {
  it("counts the service metrics paths under the service-metrics plan and the rest under open-data", () => {
    const plans = Object.fromEntries(
      Object.entries(SPEC_PATHS).map(([id, path]) => [id, planForPath(path)]),
    );
    expect(plans).toEqual({
      branches: "open-data",
      atms: "open-data",
      "personal-current-accounts": "open-data",
      "service-metrics-pca": "service-metrics",
      "service-metrics-bca": "service-metrics",
      "business-current-accounts": "open-data",
      "unsecured-sme-loans": "open-data",
      "commercial-credit-cards": "open-data",
    });
  });
});
