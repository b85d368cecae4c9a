import { describe, expect, it } from "vitest";
import { isSwitchedOn, readConfig, type ConfigVar } from "../../contract/vars.js";

describe("readConfig", () => {
  it("gives both plans 145 requests a minute by default (service metrics Default Plan)", () => {
    const config = readConfig({});
    expect(config.limits).toEqual({ "open-data": 145, "service-metrics": 145 });
    expect(config.syncIntervalMs).toBe(1000);
    expect(config.maintenance).toBe(false);
  });

  it("takes each plan's limit from its own var", () => {
    const config = readConfig({
      OPEN_DATA_LIMIT_PER_MINUTE: "600",
      SERVICE_METRICS_LIMIT_PER_MINUTE: "30",
    });
    expect(config.limits).toEqual({ "open-data": 600, "service-metrics": 30 });
  });

  it.each<[ConfigVar, string]>([
    ["OPEN_DATA_LIMIT_PER_MINUTE", "lots"],
    ["SERVICE_METRICS_LIMIT_PER_MINUTE", "0"],
    ["RATE_LIMIT_SYNC_SECONDS", "0"],
    ["RATE_LIMIT_SYNC_SECONDS", "-1"],
    ["MAINTENANCE_RETRY_AFTER_SECONDS", "1.5"],
  ])("falls back to the default and warns when %s is %s", (name, value) => {
    const warnings: string[] = [];
    const config = readConfig({ [name]: value }, (w) => warnings.push(w));
    expect(config).toEqual(readConfig({}));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(name);
  });
});

describe("isSwitchedOn", () => {
  it.each(["on", "ON", "true", "1", " on "])("treats %j as on", (value) => {
    expect(isSwitchedOn(value)).toBe(true);
  });
  it.each(["off", "false", "0", "", "yes please", null, undefined])("treats %j as off", (value) => {
    expect(isSwitchedOn(value)).toBe(false);
  });
});
