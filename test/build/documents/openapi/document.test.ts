/**
 * /openapi.json as the build writes it for the sample content: accepted by an independent
 * OpenAPI 3.1 validator, complete for every path served, and true of every body served.
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { beforeAll, describe, expect, it } from "vitest";
import type { Manifest } from "../../../../contract/manifest.js";
import {
  arrayAt,
  at,
  find,
  objectAt,
  parseJson,
  pointer,
  stringAt,
  type Json,
  type JsonObject,
} from "../../../helpers/json.js";
import { sampleBuild } from "../../../helpers/sample-build.js";
import { LIVE_STANDARD_PATHS, SPEC_ERRORS, SPEC_PATHS } from "../../../helpers/spec-values.js";

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

// The sample content as the run built it once (test/helpers/global-setup.ts).
const sample = sampleBuild();
let manifest: Manifest;
let doc: JsonObject;

beforeAll(async () => {
  manifest = await sample.manifest();
  doc = objectAt(parseJson(await sample.read("openapi.json")), "");
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

describe("the OpenAPI document", () => {
  it("names whom to contact from site.yaml's Contact, and says the data needs no credentials", () => {
    expect(at(doc, "/info/contact")).toEqual({
      name: "Open data team",
      url: "https://www.thistlecombe.example/open-data",
      email: "opendata@thistlecombe.example",
    });
    expect(doc.security).toEqual([]);
  });

  it("describes every tag it uses", () => {
    const paths = objectAt(doc, "/paths");
    const used = new Set(
      Object.keys(paths).flatMap((path) =>
        Object.keys(objectAt(paths, pointer(path))).flatMap((method) =>
          arrayAt(paths, pointer(path, method, "tags")),
        ),
      ),
    );
    const described = new Map(
      arrayAt(doc, "/tags").map((t) => [at(t, "/name"), find(t, "/description")]),
    );
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
    const entry = manifest.documents.find((d) => d.path === "/openapi.json")!;
    expect(entry.mediaType).toBe("application/vnd.oai.openapi+json;version=3.1");
  });

  it("has one relative server and every data set's path written in full", () => {
    expect(doc.servers).toEqual([{ url: "/", description: expect.any(String) as unknown }]);
    expect(Object.keys(objectAt(doc, "/paths"))).toEqual(
      expect.arrayContaining(manifest.datasets.map((d) => d.path)),
    );
  });

  it("describes GET and HEAD on every path, each with If-None-Match and If-Modified-Since", () => {
    for (const entry of manifest.datasets) {
      const item = objectAt(doc, pointer("paths", entry.path));
      expect(Object.keys(item).sort()).toEqual(["get", "head"]);
      for (const method of ["get", "head"]) {
        const names = arrayAt(item, pointer(method, "parameters")).map((p) =>
          objectAt(
            doc,
            pointer("components", "parameters", stringAt(p, "/$ref").split("/").at(-1)!),
          ),
        );
        expect(names.map((p) => [p.name, p.in])).toEqual([
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
        const ok = objectAt(doc, pointer("paths", entry.path, method, "responses", "200"));
        expect(Object.keys(objectAt(ok, "/headers"))).toEqual(expect.arrayContaining(HEADERS_200));
        for (const name of HEADERS_200) {
          expect(at(ok, pointer("headers", name, "$ref"))).toBe(`#/components/headers/${name}`);
          expect(at(doc, pointer("components", "headers", name, "schema", "type"))).toBe("string");
        }
      }
      const get = objectAt(doc, pointer("paths", entry.path, "get", "responses", "200"));
      expect(Object.keys(objectAt(get, "/content"))).toEqual([entry.mediaType]);
      const head = objectAt(doc, pointer("paths", entry.path, "head", "responses", "200"));
      expect(head.content).toBeUndefined();
    }
    const example = (header: string) =>
      at(doc, pointer("components", "headers", header, "schema", "example"));
    expect(example("Strict-Transport-Security")).toBe("max-age=31536000");
    expect(example("X-Frame-Options")).toBe("DENY");
    expect(example("X-Content-Type-Options")).toBe("nosniff");
    expect(example("Cache-Control")).toBe("max-age=28800");
  });

  // Both specs, "Errors" (404 and 405 are ours, docs/decisions.md): every status the Worker answers with.
  const ERRORS = SPEC_ERRORS.filter(([status]) => status !== 408).map((row) => [...row]);

  describe.each(ERRORS)("the %i response", (status, title, description) => {
    it("has the error schema and the spec's exact text as its example", () => {
      for (const entry of manifest.datasets) {
        for (const method of ["get", "head"]) {
          const $ref = stringAt(
            doc,
            pointer("paths", entry.path, method, "responses", String(status), "$ref"),
          );
          const response = pointer("components", "responses", $ref.split("/").at(-1)!);
          const json = objectAt(doc, `${response}${pointer("content", "application/json")}`);
          expect(json.schema).toEqual({ $ref: "#/components/schemas/Error" });
          expect(json.example).toEqual({ status: String(status), title, description });
        }
      }
    });
  });

  it("documents 304 with the validators and no body", () => {
    for (const entry of manifest.datasets) {
      const notModified = objectAt(doc, pointer("paths", entry.path, "get", "responses", "304"));
      expect(notModified.content).toBeUndefined();
      expect(Object.keys(objectAt(notModified, "/headers"))).toEqual(
        expect.arrayContaining(["ETag", "Vary"]),
      );
    }
  });

  it("states each plan's rate limit in words", () => {
    const description = stringAt(doc, "/info/description");
    expect(description).toContain(
      "**open-data**: 145 requests per minute per client (IPv4 address or IPv6 /64)",
    );
    expect(description).toContain("**service-metrics**: 145 requests per minute");
    expect(stringAt(doc, pointer("paths", "/std/v2.2/atms", "get", "description"))).toContain(
      "plan open-data): 145 requests per minute",
    );
    const pcaGet = pointer("paths", "/std/v1.0/reg-service-metrics/pca", "get", "description");
    expect(stringAt(doc, pcaGet)).toContain("plan service-metrics): 145 requests per minute");
  });

  it("carries the schemas converted to 2020-12, with every $ref pointing into the document", () => {
    const text = JSON.stringify(at(doc, "/components/schemas"));
    for (const draft07 of ['"definitions"', '"$schema"', '"$id"', '"patternErrorMessage"']) {
      expect(text).not.toContain(draft07);
    }
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(100);
    for (const ref of new Set(refs)) {
      expect(ref.startsWith("#/components/")).toBe(true);
      // The fragment is a JSON pointer (RFC 6901 section 6), here never percent-encoded.
      const target = find(doc, ref.slice(1));
      expect({ ref, found: target !== undefined }).toEqual({ ref, found: true });
    }
  });
});

describe("every served body", () => {
  it("satisfies the response schema the document gives for its path and media type", async () => {
    for (const entry of manifest.datasets) {
      const body = parseJson(await sample.read(entry.variants.identity.asset));
      const validate = compileAt(entry.path, entry.mediaType);
      expect({ path: entry.path, errors: validate(body) ? [] : validate.errors }).toEqual({
        path: entry.path,
        errors: [],
      });
    }
  });

  it("would fail that schema with a field the spec does not define", async () => {
    const entry = manifest.datasets.find((d) => d.path === "/std/v2.2/atms")!;
    const body = parseJson(await sample.read(entry.variants.identity.asset));
    objectAt(body, "/data/0/Brand/0/ATM/0").Colour = "green";
    expect(compileAt(entry.path, entry.mediaType)(body)).toBe(false);
  });
});

describe("the product shapes of 2.2.1 in the document (open-data-api-v2.2-products.md)", () => {
  async function body(path: string): Promise<Json> {
    const entry = manifest.datasets.find((d) => d.path === path)!;
    return parseJson(await sample.read(entry.variants.identity.asset));
  }
  function valid(path: string, value: Json): boolean {
    return compileAt(path, "application/prs.std.opendata.v2.2+json")(value);
  }
  const PCA = "/std/v2.2/personal-current-accounts";
  const firstState = (b: Json) => objectAt(b, "/data/0/Brand/0/PCA/0/PCAMarketingState/0");

  it("serves a PCA card's Scheme as one value, and rejects the later standard's list", async () => {
    const served = await body(PCA);
    const card = objectAt(firstState(served), "/FeaturesAndBenefits/Card/0");
    expect(["MasterCard", "Other", "Visa"]).toContain(card.Scheme);
    card.Scheme = [at(card, "/Scheme")];
    expect(valid(PCA, served)).toBe(false);
  });

  it("serves a PCA ResidencyEligibility as one object, and rejects a list of one", async () => {
    const served = await body(PCA);
    const eligibility = objectAt(firstState(served), "/Eligibility");
    expect(at(eligibility, "/ResidencyEligibility/ResidencyIncluded")).toEqual(["GB"]);
    eligibility.ResidencyEligibility = [at(eligibility, "/ResidencyEligibility")];
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
    objectAt(bca, "/data/0/Brand/0/BCA/0/BCAMarketingState/0").OtherFeesCharges = [];
    expect(valid(BCA, bca)).toBe(false);
    const SME = "/std/v2.2/unsecured-sme-loans";
    const sme = await body(SME);
    objectAt(sme, "/data/0/Brand/0/SMELoan/0/SMELoanMarketingState/0/Repayment/0").RepaymentType =
      "Other";
    expect(valid(SME, sme)).toBe(false);
  });
});

describe("with OpenBankingPaths: true in site.yaml", () => {
  it("describes exactly the paths served, the live standard's names under their own media types", async () => {
    const aliasedDoc = objectAt(parseJson(await sampleBuild("live").read("openapi.json")), "");
    // The live standard's names (test/helpers/spec-values.ts), each under its own media type.
    const expected = Object.values(LIVE_STANDARD_PATHS).flat();
    const documented = Object.keys(objectAt(aliasedDoc, "/paths")).filter((p) =>
      p.startsWith("/open-banking/"),
    );
    expect(documented.sort()).toEqual(expected.map(([path]) => path).sort());
    for (const [path, mediaType] of expected) {
      const content = objectAt(
        aliasedDoc,
        pointer("paths", path, "get", "responses", "200", "content"),
      );
      expect(Object.keys(content)).toEqual([mediaType]);
    }
    const validator = new Validator();
    expect((await validator.validate(aliasedDoc)).valid).toBe(true);
  });
});
