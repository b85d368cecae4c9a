import { describe, expect, it } from "vitest";
import { GuardUsageError } from "../../../build/guard/policy.js";
import { allowShrinkFromEnv, parseMaxShrink } from "../../../build/guard/settings.js";

describe("the guard's settings", () => {
  it("uses the share given, as a fraction or a percentage", () => {
    expect(parseMaxShrink("0.5")).toBe(0.5);
    expect(parseMaxShrink("35%")).toBe(0.35);
    expect(() => parseMaxShrink("1.5")).toThrow(GuardUsageError);
    expect(() => parseMaxShrink("lots")).toThrow(/--max-shrink must be a share from 0 to 1/);
  });

  it("uses 20% when no share is given", () => {
    expect(parseMaxShrink(undefined)).toBe(0.2);
  });

  it("reads the override from the environment, and rejects a value it cannot read", () => {
    expect(allowShrinkFromEnv({ OPENDATA_ALLOW_SHRINK: "1" })).toBe(true);
    expect(allowShrinkFromEnv({ OPENDATA_ALLOW_SHRINK: "true" })).toBe(true);
    expect(allowShrinkFromEnv({ OPENDATA_ALLOW_SHRINK: "0" })).toBe(false);
    expect(allowShrinkFromEnv({})).toBe(false);
    expect(() => allowShrinkFromEnv({ OPENDATA_ALLOW_SHRINK: "maybe" })).toThrow(GuardUsageError);
  });
});
