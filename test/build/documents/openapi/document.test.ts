/**
 * /openapi.json as the build writes it for the sample content: accepted by an independent
 * OpenAPI 3.1 validator, complete for every path served, and true of every body served.
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { beforeAll, describe, expect, it } from "vitest";
import type { Manifest } from "../../../../contract/manifest.js";
import { sampleBuild } from "../../../helpers/sample-build.js";
import { LIVE_STANDARD_PATHS, SPEC_ERRORS, SPEC_PATHS } from "../../../helpers/spec-values.js";

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

type Json = Record<string, any>;
// The sample content as the run built it once (test/helpers/global-setup.ts).
const sample = sampleBuild();
let manifest: Manifest;
let doc: Json;

beforeAll(async () => {
  manifest = await sample.manifest();
  doc = JSON.parse(await sample.read("openapi.json"));
  // The tests below check every data set the manifest lists: all the specs' data sets.
  expect(manifest.datasets.map((d) => d.path).sort()).toEqual(Object.values(SPEC_PATHS).sort());
});

/** One Ajv holding the document, so each schema it compiles is compiled once. */
let documentAjv: Ajv2020 | undefined;
function compileAt(path: string, mediaType: string) {
  if (!documentAjv) {
    documentAjv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(documentAjv);
    documentAjv.addSchema(doc, "openapi.json");
  }
  const at = pointer("paths", path, "get", "responses", "200", "content", mediaType, "schema");
  return documentAjv.compile({ $ref: `openapi.json#${at}` });
}

// JSON Pointer escaping (RFC 6901 section 3), for a pointer used as a URI fragment.
const pointer = (...tokens: string[]) =>
  tokens.map((t) => "/" + t.replace(/~/g, "~0").replace(/\//g, "~1")).join("");

describe("the OpenAPI document", () => {
  it("names whom to contact from site.yaml's Contact, and says the data needs no credentials", () => {
    expect(doc.info.contact).toEqual({
      name: "Open data team",
      url: "https://www.thistlecombe.example/open-data",
      email: "opendata@thistlecombe.example",
    });
    expect(doc.security).toEqual([]);
  });

  it("describes every tag it uses", () => {
    const used = new Set(
      Object.values(doc.paths as Json).flatMap((item: Json) =>
        Object.values(item).flatMap((op: Json) => op.tags as string[]),
      ),
    );
    const described = new Map((doc.tags as Json[]).map((t) => [t.name, t.description]));
    for (const tag of used) expect(described.get(tag)).toMatch(/\w/);
  });

  it("is accepted by an independent OpenAPI 3.1 validator", async () => {
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
  });

  it("is listed in the manifest under the media type the OpenAPI Initiative registered", () => {
    const entry = manifest.documents!.find((d) => d.path === "/openapi.json")!;
    expect(entry.mediaType).toBe("application/vnd.oai.openapi+json;version=3.1");
  });

  it("has one relative server and every data set's path written in full", () => {
    expect(doc.servers).toEqual([{ url: "/", description: expect.any(String) }]);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(manifest.datasets.map((d) => d.path)),
    );
  });

  it("describes GET and HEAD on every path, each with If-None-Match and If-Modified-Since", () => {
    for (const entry of manifest.datasets) {
      const item = doc.paths[entry.path];
      expect(Object.keys(item).sort()).toEqual(["get", "head"]);
      for (const method of ["get", "head"]) {
        const names = item[method].parameters.map(
          (p: Json) => doc.components.parameters[p.$ref.split("/").at(-1)],
        );
        expect(names.map((p: Json) => [p.name, p.in])).toEqual([
          ["If-None-Match", "header"],
          ["If-Modified-Since", "header"],
        ]);
      }
    }
  });

  // open-data-api-v2.2.md, "GET 200 response headers", plus the fields this Worker adds.
  const HEADERS_200 = [
    "ETag",
    "Last-Modified",
    "Cache-Control",
    "Strict-Transport-Security",
    "X-Frame-Options",
    "X-Content-Type-Options",
    "Vary",
    "RateLimit",
    "RateLimit-Policy",
  ];

  it("documents the 200's headers and the envelope schema under the path's media type", () => {
    for (const entry of manifest.datasets) {
      for (const method of ["get", "head"]) {
        const ok = doc.paths[entry.path][method].responses["200"];
        expect(Object.keys(ok.headers)).toEqual(expect.arrayContaining(HEADERS_200));
        for (const name of HEADERS_200) {
          expect(ok.headers[name].$ref).toBe(`#/components/headers/${name}`);
          expect(doc.components.headers[name].schema.type).toBe("string");
        }
      }
      const get = doc.paths[entry.path].get.responses["200"];
      expect(Object.keys(get.content)).toEqual([entry.mediaType]);
      expect(doc.paths[entry.path].head.responses["200"].content).toBeUndefined();
    }
    expect(doc.components.headers["Strict-Transport-Security"].schema.example).toBe(
      "max-age=31536000",
    );
    expect(doc.components.headers["X-Frame-Options"].schema.example).toBe("DENY");
    expect(doc.components.headers["X-Content-Type-Options"].schema.example).toBe("nosniff");
    expect(doc.components.headers["Cache-Control"].schema.example).toBe("max-age=28800");
  });

  // Both specs, "Errors" (404 and 405 are ours, docs/decisions.md): every status the Worker answers with.
  const ERRORS = SPEC_ERRORS.filter(([status]) => status !== 408).map((row) => [...row]);

  describe.each(ERRORS)("the %i response", (status, title, description) => {
    it("has the error schema and the spec's exact text as its example", () => {
      for (const entry of manifest.datasets) {
        for (const method of ["get", "head"]) {
          const { $ref } = doc.paths[entry.path][method].responses[String(status)];
          const response = doc.components.responses[$ref.split("/").at(-1)];
          const json = response.content["application/json"];
          expect(json.schema).toEqual({ $ref: "#/components/schemas/Error" });
          expect(json.example).toEqual({ status: String(status), title, description });
        }
      }
    });
  });

  it("documents 304 with the validators and no body", () => {
    for (const entry of manifest.datasets) {
      const notModified = doc.paths[entry.path].get.responses["304"];
      expect(notModified.content).toBeUndefined();
      expect(Object.keys(notModified.headers)).toEqual(expect.arrayContaining(["ETag", "Vary"]));
    }
  });

  it("states each plan's rate limit in words", () => {
    expect(doc.info.description).toContain(
      "**open-data**: 145 requests per minute per client (IPv4 address or IPv6 /64)",
    );
    expect(doc.info.description).toContain("**service-metrics**: 145 requests per minute");
    expect(doc.paths["/std/v2.2/atms"].get.description).toContain(
      "plan open-data): 145 requests per minute",
    );
    expect(doc.paths["/std/v1.0/reg-service-metrics/pca"].get.description).toContain(
      "plan service-metrics): 145 requests per minute",
    );
  });

  it("carries the schemas converted to 2020-12, with every $ref pointing into the document", () => {
    const text = JSON.stringify(doc.components.schemas);
    for (const draft07 of ['"definitions"', '"$schema"', '"$id"', '"patternErrorMessage"']) {
      expect(text).not.toContain(draft07);
    }
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(100);
    for (const ref of new Set(refs)) {
      expect(ref.startsWith("#/components/")).toBe(true);
      const target = ref
        .slice(2)
        .split("/")
        .reduce<any>((node, token) => node?.[token.replace(/~1/g, "/").replace(/~0/g, "~")], doc);
      expect({ ref, found: target !== undefined }).toEqual({ ref, found: true });
    }
  });
});

describe("every served body", () => {
  it("satisfies the response schema the document gives for its path and media type", async () => {
    for (const entry of manifest.datasets) {
      const body = JSON.parse(await sample.read(entry.variants.identity.asset));
      const validate = compileAt(entry.path, entry.mediaType);
      expect({ path: entry.path, errors: validate(body) ? [] : validate.errors }).toEqual({
        path: entry.path,
        errors: [],
      });
    }
  });

  it("would fail that schema with a field the spec does not define", async () => {
    const entry = manifest.datasets.find((d) => d.path === "/std/v2.2/atms")!;
    const body = JSON.parse(await sample.read(entry.variants.identity.asset));
    body.data[0].Brand[0].ATM[0].Colour = "green";
    expect(compileAt(entry.path, entry.mediaType)(body)).toBe(false);
  });
});

describe("the product shapes of 2.2.1 in the document (open-data-api-v2.2-products.md)", () => {
  async function body(path: string): Promise<Json> {
    const entry = manifest.datasets.find((d) => d.path === path)!;
    return JSON.parse(await sample.read(entry.variants.identity.asset));
  }
  function valid(path: string, value: Json): boolean {
    return compileAt(path, "application/prs.std.opendata.v2.2+json")(value) as boolean;
  }
  const PCA = "/std/v2.2/personal-current-accounts";
  const firstState = (b: Json) => b.data[0].Brand[0].PCA[0].PCAMarketingState[0];

  it("serves a PCA card's Scheme as one value, and rejects the later standard's list", async () => {
    const served = await body(PCA);
    const card = firstState(served).FeaturesAndBenefits.Card[0];
    expect(["MasterCard", "Other", "Visa"]).toContain(card.Scheme);
    card.Scheme = [card.Scheme];
    expect(valid(PCA, served)).toBe(false);
  });

  it("serves a PCA ResidencyEligibility as one object, and rejects a list of one", async () => {
    const served = await body(PCA);
    const eligibility = firstState(served).Eligibility;
    expect(eligibility.ResidencyEligibility.ResidencyIncluded).toEqual(["GB"]);
    eligibility.ResidencyEligibility = [eligibility.ResidencyEligibility];
    expect(valid(PCA, served)).toBe(false);
  });

  it("accepts a PCA marketing state without OtherFeesCharges, which only rule 9 asks for", async () => {
    const served = await body(PCA);
    delete firstState(served).OtherFeesCharges;
    expect(valid(PCA, served)).toBe(true);
  });

  it("rejects an empty BCA OtherFeesCharges list and an SME RepaymentType Other", async () => {
    const BCA = "/std/v2.2/business-current-accounts";
    const bca = await body(BCA);
    bca.data[0].Brand[0].BCA[0].BCAMarketingState[0].OtherFeesCharges = [];
    expect(valid(BCA, bca)).toBe(false);
    const SME = "/std/v2.2/unsecured-sme-loans";
    const sme = await body(SME);
    sme.data[0].Brand[0].SMELoan[0].SMELoanMarketingState[0].Repayment[0].RepaymentType = "Other";
    expect(valid(SME, sme)).toBe(false);
  });
});

describe("with OpenBankingPaths: true in site.yaml", () => {
  it("describes exactly the paths served, the live standard's names under their own media types", async () => {
    const aliasedDoc = JSON.parse(await sampleBuild("live").read("openapi.json"));
    // The live standard's names (test/helpers/spec-values.ts), each under its own media type.
    const expected = Object.values(LIVE_STANDARD_PATHS).flat();
    const documented = Object.keys(aliasedDoc.paths).filter((p) => p.startsWith("/open-banking/"));
    expect(documented.sort()).toEqual(expected.map(([path]) => path).sort());
    for (const [path, mediaType] of expected) {
      expect(Object.keys(aliasedDoc.paths[path].get.responses["200"].content)).toEqual([mediaType]);
    }
    const validator = new Validator();
    expect((await validator.validate(aliasedDoc)).valid).toBe(true);
  });
});
