/**
 * A client generated from /openapi.json, as a consumer would make one: openapi-typescript's types
 * from the document the build wrote (test/generated/, made by `npm run client-types` before the
 * type check) and openapi-fetch's requests, against the real Worker. The calls below are type
 * checked against the generated types, so a change to the document that would break a
 * consumer's generated client fails the type check, and one that would mislead it fails here.
 */
import createClient from "openapi-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { components, paths } from "../generated/opendata-api.js";
import { startWorker, type RunningWorker } from "../helpers/worker.js";

let worker: RunningWorker;
let client: ReturnType<typeof createClient<paths>>;
beforeAll(async () => {
  worker = await startWorker();
  client = createClient<paths>({ baseUrl: worker.base.origin });
}, 60_000);
afterAll(async () => worker?.dispose());

/** Records in a body, counted as meta.TotalResults counts them: items of the record lists. */
function countRecords(
  body: { data: { Brand: Record<string, unknown>[] }[] },
  recordsKey: string | null,
): number {
  const brands = body.data.flatMap((d) => d.Brand);
  if (recordsKey === null) return brands.length;
  return brands.reduce((sum, brand) => sum + (brand[recordsKey] as unknown[]).length, 0);
}

describe("a client generated from /openapi.json", () => {
  // Each call names its path literally, so the type check ties it to the generated types.
  const reads = {
    branches: async () => {
      const { data, response } = await client.GET("/std/v2.2/branches");
      return { data, response, count: countRecords(data!, "Branch") };
    },
    atms: async () => {
      const { data, response } = await client.GET("/std/v2.2/atms");
      return { data, response, count: countRecords(data!, "ATM") };
    },
    "personal-current-accounts": async () => {
      const { data, response } = await client.GET("/std/v2.2/personal-current-accounts");
      return { data, response, count: countRecords(data!, "PCA") };
    },
    "business-current-accounts": async () => {
      const { data, response } = await client.GET("/std/v2.2/business-current-accounts");
      return { data, response, count: countRecords(data!, "BCA") };
    },
    "unsecured-sme-loans": async () => {
      const { data, response } = await client.GET("/std/v2.2/unsecured-sme-loans");
      return { data, response, count: countRecords(data!, "SMELoan") };
    },
    "commercial-credit-cards": async () => {
      const { data, response } = await client.GET("/std/v2.2/commercial-credit-cards");
      return { data, response, count: countRecords(data!, "CCC") };
    },
    "service-metrics-pca": async () => {
      const { data, response } = await client.GET("/std/v1.0/reg-service-metrics/pca");
      return { data, response, count: countRecords(data!, null) };
    },
    "service-metrics-bca": async () => {
      const { data, response } = await client.GET("/std/v1.0/reg-service-metrics/bca");
      return { data, response, count: countRecords(data!, null) };
    },
  };

  it.each(Object.keys(reads) as (keyof typeof reads)[])(
    "reads %s, with as many records as meta.TotalResults says",
    async (id) => {
      const { data, response, count } = await reads[id]();
      expect(response.status).toBe(200);
      expect(data!.meta.TotalResults).toBeGreaterThan(0);
      expect(count).toBe(data!.meta.TotalResults);
    },
  );

  it("asks for the ATMs near a point, the radius a query parameter, as the document describes", async () => {
    const { data, response } = await client.GET(
      "/x-std/v2.2/atms/geo-location/lat/{latitude}/long/{longitude}",
      { params: { path: { latitude: 54.1237, longitude: -1.7341 }, query: { radius: 2 } } },
    );
    expect(response.status).toBe(200);
    expect(data!.meta.TotalResults).toBeGreaterThan(0);
    expect(countRecords(data!, "ATM")).toBe(data!.meta.TotalResults);
  });

  it("reads the ATMs changed since the oldest version kept, typed records and Removed alike", async () => {
    const changes = worker.manifest.changes!.find((c) => c.dataset === "atms")!;
    const since = changes.answers.at(-1)!.since;
    const { data, response } = await client.GET("/x-std/v2.2/atms/changes", {
      params: { query: { since } },
    });
    expect(response.status).toBe(200);
    expect(data!.meta.Since).toBe(since);
    const brands = data!.data.flatMap((d) => d.Brand);
    // Typed by the document: a listed ATM is the data set's ATM, Removed a list of text.
    const listed: string[] = brands.flatMap((b) => (b.ATM ?? []).map((atm) => atm.Identification));
    const removed: string[] = brands.flatMap((b) => b.Removed ?? []);
    expect(listed.length + removed.length).toBe(data!.meta.TotalResults);
  });

  it("gets the spec's error body with 410 for a version no longer kept", async () => {
    const { error, response } = await client.GET("/x-std/v2.2/atms/changes", {
      params: { query: { since: "2000-01-01T00:00:00Z" } },
    });
    expect(response.status).toBe(410);
    expect(error!.status).toBe("410");
  });

  it("reads the directory entry and finds this deployment's data sets in it", async () => {
    const { data, response } = await client.GET("/participant_store.json");
    expect(response.status).toBe(200);
    const entry = data!.data[0]!;
    expect(Object.keys(entry.supportedAPIs).sort()).toEqual([
      "atms",
      "branches",
      "business-current-accounts",
      "commercial-credit-cards",
      "personal-current-accounts",
      "unsecured-sme-loans",
    ]);
  });
});

describe("the generated client's product types (open-data-api-v2.2-products.md)", () => {
  type PcaCard = components["schemas"]["pca-brand.Card"];
  type PcaEligibility = components["schemas"]["pca-brand.Eligibility"];

  it("types a PCA card's Scheme as one value and ResidencyEligibility as one object, as served", async () => {
    const { data } = await client.GET("/std/v2.2/personal-current-accounts");
    const states = data!.data
      .flatMap((d) => d.Brand)
      .flatMap((b) => b.PCA)
      .flatMap((p) => p.PCAMarketingState);
    // Assigned to the 2.2.1 shapes, so a list type in the document fails the type check.
    const schemes: ("MasterCard" | "Other" | "Visa")[] = states.flatMap((s) =>
      (s.FeaturesAndBenefits?.Card ?? []).map((card) => card.Scheme),
    );
    const residencies: { ResidencyIncluded: string[] }[] = states.flatMap((s) =>
      s.Eligibility?.ResidencyEligibility ? [s.Eligibility.ResidencyEligibility] : [],
    );
    expect(schemes.length).toBeGreaterThan(0);
    for (const scheme of schemes) expect(["MasterCard", "Other", "Visa"]).toContain(scheme);
    expect(residencies.length).toBeGreaterThan(0);
    for (const residency of residencies) expect(Array.isArray(residency)).toBe(false);
  });

  it("does not type the later standard's lists as valid", () => {
    // @ts-expect-error a list is not a 2.2.1 Scheme
    const scheme: PcaCard["Scheme"] = ["Visa"];
    // @ts-expect-error a list is not a 2.2.1 ResidencyEligibility
    const residency: PcaEligibility["ResidencyEligibility"] = [{ ResidencyIncluded: ["GB"] }];
    expect([scheme, residency]).toHaveLength(2);
  });
});
