/**
 * The JSON Schemas in schemas/ and the sample content in content/: every schema compiles in ajv's
 * strict mode, every sample validates, and each rule family of the specs is proved by taking a
 * valid sample, breaking exactly one thing and checking the ajv error it produces.
 */
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import type { AnySchemaObject, ErrorObject } from "ajv";
import fg from "fast-glob";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import {
  AGREEMENT,
  DATASETS,
  type DatasetDefinition,
  type DatasetId,
} from "../../build/core/datasets.js";
import { CONTENT_DIR, SCHEMA_DIR } from "../../build/core/paths.js";
import { readSchemas, validatorFor } from "../../build/check/schemas.js";
import { arrayAt, at, objectAt, stringAt, type Json, type JsonObject } from "../helpers/json.js";
import { schemaAjv } from "../helpers/schemas.js";
import { SPEC_AGREEMENT } from "../helpers/spec-values.js";
import { SPEC_DATASETS } from "../helpers/datasets.js";

const SITE_SCHEMA = "site.schema.json";
const SITE_FILE = join(CONTENT_DIR, "site.yaml");

function datasetById(id: DatasetId): DatasetDefinition {
  const dataset = DATASETS.find((d) => d.id === id);
  if (!dataset) throw new Error(`no data set ${id}`);
  return dataset;
}

/** The sample files of one data set, absolute, in byte order of their paths. */
function sampleFiles(dataset: DatasetDefinition): string[] {
  return fg
    .sync("**/*.{yaml,yml}", { cwd: join(CONTENT_DIR, dataset.contentDir), absolute: true })
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function readYaml(file: string): Json {
  return parse(readFileSync(file, "utf8")) as Json;
}

/**
 * A sample file by its path under the data set's content folder, as a fresh copy to break: the
 * tests change it in place at a JSON pointer (objectAt), the one the schema's error names.
 */
function sample(id: DatasetId, file: string): JsonObject {
  return objectAt(
    structuredClone(readYaml(join(CONTENT_DIR, datasetById(id).contentDir, file))),
    "",
  );
}

/** Brand slug of a sample file: its file name, or the brand folder it sits in. */
function brandSlug(dataset: DatasetDefinition, file: string): string {
  const [first] = relative(join(CONTENT_DIR, dataset.contentDir), file).split(sep);
  return first!.replace(/\.ya?ml$/, "");
}

/** The data set's brands as published: brand folders joined in byte order of their file paths. */
function publishedBrands(dataset: DatasetDefinition): JsonObject[] {
  const brands = new Map<string, JsonObject>();
  for (const file of sampleFiles(dataset)) {
    const brand = objectAt(readYaml(file), "");
    const slug = brandSlug(dataset, file);
    // Service metrics have no record list: every file is a brand object of its own.
    const key = dataset.recordsKey ? slug : file;
    const seen = brands.get(key);
    const records = `/${dataset.recordsKey}`;
    if (seen) arrayAt(seen, records).push(...arrayAt(brand, records));
    else brands.set(key, brand);
  }
  return [...brands.values()];
}

function envelopeOf(dataset: DatasetDefinition): JsonObject {
  const site = readYaml(SITE_FILE);
  const brands = publishedBrands(dataset);
  const key = dataset.recordsKey;
  return {
    meta: {
      LastUpdated: "2026-08-14T08:00:00Z",
      TotalResults: key
        ? brands.reduce((n, b) => n + arrayAt(b, `/${key}`).length, 0)
        : brands.length,
      Agreement: SPEC_AGREEMENT,
      License: at(site, "/License"),
      TermsOfUse: at(site, "/TermsOfUse"),
    },
    data: [{ Brand: brands }],
  };
}

const ajv = schemaAjv();

function errorsOf(schemaFile: string, data: unknown): ErrorObject[] {
  const validate = validatorFor(ajv, schemaFile);
  return validate(data) ? [] : [...(validate.errors ?? [])];
}

function describeErrors(errors: ErrorObject[]): string {
  return errors.map((e) => `${e.instancePath || "/"} ${e.keyword}: ${e.message}`).join("\n");
}

/**
 * Asserts that `data` fails with `keyword` at `instancePath` and nowhere else, so the single thing
 * the test broke is what the schema caught (a number that is not an integer can also fail its
 * format at the same place; that is allowed).
 */
function expectRejected(schemaFile: string, data: unknown, keyword: string, instancePath: string) {
  const errors = errorsOf(schemaFile, data);
  expect(
    errors.map((e) => ({ keyword: e.keyword, instancePath: e.instancePath })),
    describeErrors(errors),
  ).toContainEqual({ keyword, instancePath });
  expect(
    errors.filter((e) => e.instancePath !== instancePath),
    describeErrors(errors),
  ).toEqual([]);
}

function expectAccepted(schemaFile: string, data: unknown) {
  const errors = errorsOf(schemaFile, data);
  expect(errors, describeErrors(errors)).toEqual([]);
}

describe("schema files", () => {
  const schemas = readSchemas();
  const names = [...schemas.keys()];

  it("holds the brand and envelope schema of every data set and the site schema", () => {
    const expected = SPEC_DATASETS.flatMap(([, d]) => [d.brandSchema, d.envelopeSchema]);
    expect(names).toEqual(expect.arrayContaining([...expected, SITE_SCHEMA, "common.schema.json"]));
  });

  // createAjv is strict (ajv's strict mode: unknown keywords and formats throw at compile time);
  // the one instance the tests below validate with compiles each schema once, here.
  it.each(names)("compiles %s in strict mode", (name) => {
    expect(ajv.opts.strict).toBe(true);
    expect(() => validatorFor(ajv, name)).not.toThrow();
  });

  it.each(names)("declares %s as draft-07 without $id, so refs work by file name", (name) => {
    const schema = schemas.get(name)!;
    expect(schema.$schema).toBe("http://json-schema.org/draft-07/schema#");
    expect(schema).not.toHaveProperty("$id");
  });

  /** Every subschema with its JSON pointer, for the checks below. */
  function subschemas(node: unknown, pointer = ""): [string, AnySchemaObject][] {
    if (!node || typeof node !== "object") return [];
    if (Array.isArray(node)) return node.flatMap((item, i) => subschemas(item, `${pointer}/${i}`));
    const found: [string, AnySchemaObject][] = [[pointer, node]];
    for (const [key, value] of Object.entries(node)) {
      if (key === "enum" || key === "const" || key === "required") continue;
      found.push(...subschemas(value, `${pointer}/${key}`));
    }
    return found;
  }

  it.each(names)("gives every property in %s a description editors see on hover", (name) => {
    const undescribed = subschemas(schemas.get(name))
      .filter(([, s]) => s.properties && typeof s.properties === "object")
      .flatMap(([pointer, s]) =>
        Object.entries(s.properties as Record<string, AnySchemaObject>)
          .filter(([, prop]) => typeof prop.description !== "string")
          .map(([prop]) => `${pointer}/properties/${prop}`),
      );
    expect(undescribed).toEqual([]);
  });

  it.each(names)("anchors every pattern in %s and explains it for editors", (name) => {
    const bad = subschemas(schemas.get(name))
      .filter(([, s]) => typeof s.pattern === "string")
      .filter(
        ([, s]) =>
          !(s.pattern as string).startsWith("^") ||
          !(s.pattern as string).endsWith("$") ||
          typeof s.patternErrorMessage !== "string",
      )
      .map(([pointer]) => pointer);
    expect(bad).toEqual([]);
  });

  it("holds the spec's Agreement text, the same as the build's AGREEMENT", () => {
    const common = schemas.get("common.schema.json");
    expect(at(common, "/definitions/Meta/properties/Agreement/const")).toBe(SPEC_AGREEMENT);
    expect(AGREEMENT).toBe(SPEC_AGREEMENT);
  });
});

describe("sample content", () => {
  it("accepts content/site.yaml", () => {
    expectAccepted(SITE_SCHEMA, readYaml(SITE_FILE));
  });

  it("points content/site.yaml at the site schema for editors", () => {
    const firstLine = readFileSync(SITE_FILE, "utf8").split("\n")[0];
    expect(firstLine).toBe("# yaml-language-server: $schema=../schemas/site.schema.json");
  });

  describe.each(SPEC_DATASETS)("%s", (_id, dataset) => {
    const files = sampleFiles(dataset);
    const display = (file: string) => relative(CONTENT_DIR, file).split(sep).join("/");

    it("has sample files", () => {
      expect(files.length).toBeGreaterThan(0);
    });

    it.each(files.map((f) => [display(f), f]))("accepts %s as a brand", (_name, file) => {
      expectAccepted(dataset.brandSchema, readYaml(file));
    });

    it.each(files.map((f) => [display(f), f]))(
      "points %s at its brand schema for editors",
      (_name, file) => {
        const firstLine = readFileSync(file, "utf8").split("\n")[0]!;
        const match = /^# yaml-language-server: \$schema=(\S+)$/.exec(firstLine);
        expect(match, firstLine).not.toBeNull();
        expect(resolve(dirname(file), match![1]!)).toBe(join(SCHEMA_DIR, dataset.brandSchema));
      },
    );

    it("keeps the brand name the same in every file of a brand folder", () => {
      const names = new Map<string, Set<string>>();
      for (const file of files) {
        const slug = brandSlug(dataset, file);
        names.set(slug, (names.get(slug) ?? new Set()).add(stringAt(readYaml(file), "/BrandName")));
      }
      for (const [slug, set] of names) expect([...set], slug).toHaveLength(1);
    });

    if (dataset.recordsKey) {
      const key = dataset.recordsKey;
      it(`keeps ${dataset.identity.join(" + ")} unique within each brand`, () => {
        for (const brand of publishedBrands(dataset)) {
          const ids = arrayAt(brand, `/${key}`).map((_, i) => {
            const record = objectAt(brand, `/${key}/${i}`);
            return dataset.identity.map((f) => JSON.stringify(record[f])).join(" + ");
          });
          expect(ids.length, stringAt(brand, "/BrandName")).toBe(new Set(ids).size);
        }
      });
    }

    it(`accepts the published envelope built from the samples (${dataset.envelopeSchema})`, () => {
      expectAccepted(dataset.envelopeSchema, envelopeOf(dataset));
    });
  });
});

describe("rules of the branch data set", () => {
  const schema = datasetById("branches").brandSchema;
  let brand: JsonObject;
  let branch: JsonObject;
  const fresh = () => {
    brand = sample("branches", "thistlecombe-bank/north.yaml");
    branch = objectAt(brand, "/Branch/0");
  };

  describe("lengths", () => {
    it("rejects an empty BrandName", () => {
      fresh();
      brand.BrandName = "";
      expectRejected(schema, brand, "minLength", "/BrandName");
    });
    it("rejects an Identification of 36 characters", () => {
      fresh();
      branch.Identification = "B".repeat(36);
      expectRejected(schema, brand, "maxLength", "/Branch/0/Identification");
    });
    it("accepts an Identification of 35 characters", () => {
      fresh();
      branch.Identification = "B".repeat(35);
      expectAccepted(schema, brand);
    });
    it("rejects a Note of 2001 characters", () => {
      fresh();
      branch.Note = "n".repeat(2001);
      expectRejected(schema, brand, "maxLength", "/Branch/0/Note");
    });
    it("rejects a sort code of 9 characters", () => {
      fresh();
      branch.SortCode = ["98-76-012"];
      expectRejected(schema, brand, "maxLength", "/Branch/0/SortCode/0");
    });
  });

  describe("enums", () => {
    it("rejects a Type other than Mobile or Physical", () => {
      fresh();
      branch.Type = "Kiosk";
      expectRejected(schema, brand, "enum", "/Branch/0/Type");
    });
    it("rejects a CustomerSegment value outside the list", () => {
      fresh();
      branch.CustomerSegment = ["Retail"];
      expectRejected(schema, brand, "enum", "/Branch/0/CustomerSegment/0");
    });
    it("rejects a weekday spelled in lower case", () => {
      fresh();
      objectAt(branch, "/Availability/StandardAvailability/Day/0").Name = "monday";
      expectRejected(
        schema,
        brand,
        "enum",
        "/Branch/0/Availability/StandardAvailability/Day/0/Name",
      );
    });
    it("accepts HelpingHandUnit, an accessibility value only branches have", () => {
      fresh();
      branch.Accessibility = ["HelpingHandUnit"];
      expectAccepted(schema, brand);
    });
  });

  describe("patterns", () => {
    it("rejects a Country of four letters that contains a valid code (XGBX)", () => {
      fresh();
      objectAt(branch, "/PostalAddress").Country = "XGBX";
      expectRejected(schema, brand, "pattern", "/Branch/0/PostalAddress/Country");
    });
    it("rejects a Country of three letters", () => {
      fresh();
      objectAt(branch, "/PostalAddress").Country = "GBR";
      expectRejected(schema, brand, "pattern", "/Branch/0/PostalAddress/Country");
    });
    it("rejects a Country in lower case", () => {
      fresh();
      objectAt(branch, "/PostalAddress").Country = "gb";
      expectRejected(schema, brand, "pattern", "/Branch/0/PostalAddress/Country");
    });
    it("rejects an opening time of 24:00", () => {
      fresh();
      objectAt(branch, "/Availability/StandardAvailability/Day/0/OpeningHours/0").ClosingTime =
        "24:00";
      expectRejected(
        schema,
        brand,
        "pattern",
        "/Branch/0/Availability/StandardAvailability/Day/0/OpeningHours/0/ClosingTime",
      );
    });
    it("rejects an opening time without a leading zero (9:00)", () => {
      fresh();
      objectAt(branch, "/Availability/StandardAvailability/Day/0/OpeningHours/0").OpeningTime =
        "9:00";
      expectRejected(
        schema,
        brand,
        "pattern",
        "/Branch/0/Availability/StandardAvailability/Day/0/OpeningHours/0/OpeningTime",
      );
    });
    it("accepts an opening time without a colon (0900)", () => {
      fresh();
      objectAt(branch, "/Availability/StandardAvailability/Day/0/OpeningHours/0").OpeningTime =
        "0900";
      expectAccepted(schema, brand);
    });
    it("rejects a latitude without decimals", () => {
      fresh();
      objectAt(branch, "/PostalAddress/GeoLocation/GeographicCoordinates").Latitude = "54";
      expectRejected(
        schema,
        brand,
        "pattern",
        "/Branch/0/PostalAddress/GeoLocation/GeographicCoordinates/Latitude",
      );
    });
    it("rejects a longitude with 9 decimals", () => {
      fresh();
      objectAt(branch, "/PostalAddress/GeoLocation/GeographicCoordinates").Longitude =
        "-1.734180001";
      expectRejected(
        schema,
        brand,
        "pattern",
        "/Branch/0/PostalAddress/GeoLocation/GeographicCoordinates/Longitude",
      );
    });
    it("rejects a code object Code of five characters", () => {
      fresh();
      objectAt(branch, "/OtherCustomerSegment/0").Code = "CLUBS";
      expectRejected(schema, brand, "pattern", "/Branch/0/OtherCustomerSegment/0/Code");
    });
    it("rejects a code object Code with a space", () => {
      fresh();
      objectAt(branch, "/OtherCustomerSegment/0").Code = "C B";
      expectRejected(schema, brand, "pattern", "/Branch/0/OtherCustomerSegment/0/Code");
    });
  });

  describe("required fields", () => {
    it("rejects a branch address without PostCode", () => {
      fresh();
      delete objectAt(branch, "/PostalAddress").PostCode;
      expectRejected(schema, brand, "required", "/Branch/0/PostalAddress");
    });
    it.each(["Identification", "SequenceNumber", "Type", "CustomerSegment", "PostalAddress"])(
      "rejects a branch without %s",
      (field) => {
        fresh();
        delete branch[field];
        expectRejected(schema, brand, "required", "/Branch/0");
      },
    );
    it("rejects a code object without Description", () => {
      fresh();
      delete objectAt(branch, "/OtherAccessibility/0").Description;
      expectRejected(schema, brand, "required", "/Branch/0/OtherAccessibility/0");
    });
    it("rejects a non-standard availability without Name", () => {
      fresh();
      delete objectAt(branch, "/Availability/NonStandardAvailability").Name;
      expectRejected(schema, brand, "required", "/Branch/0/Availability/NonStandardAvailability");
    });
    it("rejects geographic coordinates without Longitude", () => {
      fresh();
      delete objectAt(branch, "/PostalAddress/GeoLocation/GeographicCoordinates").Longitude;
      expectRejected(
        schema,
        brand,
        "required",
        "/Branch/0/PostalAddress/GeoLocation/GeographicCoordinates",
      );
    });
  });

  describe("closed objects", () => {
    it("rejects a field the spec does not list on a branch", () => {
      fresh();
      branch.Website = "https://www.example.com";
      expectRejected(schema, brand, "additionalProperties", "/Branch/0");
    });
    it("rejects a field the spec does not list in a postal address", () => {
      fresh();
      objectAt(branch, "/PostalAddress").County = "North Yorkshire";
      expectRejected(schema, brand, "additionalProperties", "/Branch/0/PostalAddress");
    });
    it("rejects a field the spec does not list on the brand", () => {
      fresh();
      brand.Website = "https://www.example.com";
      expectRejected(schema, brand, "additionalProperties", "");
    });
  });

  describe("item counts", () => {
    it("rejects a brand without branches", () => {
      fresh();
      brand.Branch = [];
      expectRejected(schema, brand, "minItems", "/Branch");
    });
    it("rejects an empty CustomerSegment", () => {
      fresh();
      branch.CustomerSegment = [];
      expectRejected(schema, brand, "minItems", "/Branch/0/CustomerSegment");
    });
    it("rejects a day without opening hours", () => {
      fresh();
      objectAt(branch, "/Availability/StandardAvailability/Day/0").OpeningHours = [];
      expectRejected(
        schema,
        brand,
        "minItems",
        "/Branch/0/Availability/StandardAvailability/Day/0/OpeningHours",
      );
    });
    it("rejects eight standard days", () => {
      fresh();
      const days = arrayAt(branch, "/Availability/StandardAvailability/Day");
      while (days.length < 8) days.push(structuredClone(days[0]!));
      expectRejected(schema, brand, "maxItems", "/Branch/0/Availability/StandardAvailability/Day");
    });
    it("rejects eight address lines", () => {
      fresh();
      objectAt(branch, "/PostalAddress").AddressLine = Array.from(
        { length: 8 },
        (_, i) => `Line ${i + 1}`,
      );
      expectRejected(schema, brand, "maxItems", "/Branch/0/PostalAddress/AddressLine");
    });
    it("rejects three country subdivisions", () => {
      fresh();
      objectAt(branch, "/PostalAddress").CountrySubDivision = [
        "North Yorkshire",
        "Yorkshire",
        "England",
      ];
      expectRejected(schema, brand, "maxItems", "/Branch/0/PostalAddress/CountrySubDivision");
    });
  });

  describe("formats", () => {
    it("rejects a StartDate that is not a calendar date", () => {
      fresh();
      objectAt(branch, "/Availability/NonStandardAvailability").StartDate = "2026-13-01";
      expectRejected(
        schema,
        brand,
        "format",
        "/Branch/0/Availability/NonStandardAvailability/StartDate",
      );
    });
    it("rejects an EndDate written day first", () => {
      fresh();
      objectAt(branch, "/Availability/NonStandardAvailability").EndDate = "19/12/2026";
      expectRejected(
        schema,
        brand,
        "format",
        "/Branch/0/Availability/NonStandardAvailability/EndDate",
      );
    });
  });

  describe("types", () => {
    it("rejects a SequenceNumber written as a YAML number", () => {
      fresh();
      branch.SequenceNumber = 0;
      expectRejected(schema, brand, "type", "/Branch/0/SequenceNumber");
    });
  });
});

describe("rules of the ATM data set", () => {
  const schema = datasetById("atms").brandSchema;
  let brand: JsonObject;
  let atm: JsonObject;
  const fresh = () => {
    brand = sample("atms", "thistlecombe-bank/north.yaml");
    atm = objectAt(brand, "/ATM/0");
  };

  describe("patterns", () => {
    it("rejects a language code in capitals", () => {
      fresh();
      atm.SupportedLanguages = ["EN"];
      expectRejected(schema, brand, "pattern", "/ATM/0/SupportedLanguages/0");
    });
    it("rejects a language code of three letters", () => {
      fresh();
      atm.SupportedLanguages = ["eng"];
      expectRejected(schema, brand, "pattern", "/ATM/0/SupportedLanguages/0");
    });
    it("rejects a currency code of four letters that contains a valid code (XGBP)", () => {
      fresh();
      atm.SupportedCurrencies = ["XGBP"];
      expectRejected(schema, brand, "pattern", "/ATM/0/SupportedCurrencies/0");
    });
    it("rejects a currency code in lower case", () => {
      fresh();
      atm.SupportedCurrencies = ["gbp"];
      expectRejected(schema, brand, "pattern", "/ATM/0/SupportedCurrencies/0");
    });
    it("rejects a MinimumPossibleAmount with three decimals", () => {
      fresh();
      atm.MinimumPossibleAmount = "10.005";
      expectRejected(schema, brand, "pattern", "/ATM/0/MinimumPossibleAmount");
    });
    it("rejects a MinimumPossibleAmount with a currency sign", () => {
      fresh();
      atm.MinimumPossibleAmount = "£10";
      expectRejected(schema, brand, "pattern", "/ATM/0/MinimumPossibleAmount");
    });
  });

  describe("types", () => {
    it('rejects Access24HoursIndicator "yes"', () => {
      fresh();
      atm.Access24HoursIndicator = "yes";
      expectRejected(schema, brand, "type", "/ATM/0/Access24HoursIndicator");
    });
    it("rejects a Note that is a single string instead of a list", () => {
      fresh();
      atm.Note = "Dispenses £10 and £20 notes.";
      expectRejected(schema, brand, "type", "/ATM/0/Note");
    });
  });

  describe("required fields", () => {
    it.each(["Identification", "SupportedCurrencies", "Location"])(
      "rejects an ATM without %s",
      (field) => {
        fresh();
        delete atm[field];
        expectRejected(schema, brand, "required", "/ATM/0");
      },
    );
    it("rejects a location without PostalAddress", () => {
      fresh();
      delete objectAt(atm, "/Location").PostalAddress;
      expectRejected(schema, brand, "required", "/ATM/0/Location");
    });
    it("accepts an ATM address without PostCode", () => {
      fresh();
      delete objectAt(atm, "/Location/PostalAddress").PostCode;
      expectAccepted(schema, brand);
    });
  });

  describe("item counts, enums and closed objects", () => {
    it("rejects an ATM without supported currencies", () => {
      fresh();
      atm.SupportedCurrencies = [];
      expectRejected(schema, brand, "minItems", "/ATM/0/SupportedCurrencies");
    });
    it("rejects the branch accessibility value HelpingHandUnit", () => {
      fresh();
      atm.Accessibility = ["HelpingHandUnit"];
      expectRejected(schema, brand, "enum", "/ATM/0/Accessibility/0");
    });
    it("rejects a LocationCategory outside the list", () => {
      fresh();
      objectAt(atm, "/Location").LocationCategory = ["Supermarket"];
      expectRejected(schema, brand, "enum", "/ATM/0/Location/LocationCategory/0");
    });
    it("rejects a Branch reference with a field besides Identification", () => {
      fresh();
      objectAt(atm, "/Branch").Name = "Wexbury";
      expectRejected(schema, brand, "additionalProperties", "/ATM/0/Branch");
    });
    it("rejects a Site Name of 141 characters", () => {
      fresh();
      objectAt(atm, "/Location/Site").Name = "s".repeat(141);
      expectRejected(schema, brand, "maxLength", "/ATM/0/Location/Site/Name");
    });
  });
});

describe("rules of the personal current account data set", () => {
  const schema = datasetById("personal-current-accounts").brandSchema;
  let brand: JsonObject;
  let pca: JsonObject;
  /** The regular marketing state of the first product: it holds the credit interest. */
  let state: JsonObject;
  let band: JsonObject;
  const fresh = () => {
    brand = sample("personal-current-accounts", "thistlecombe-bank.yaml");
    pca = objectAt(brand, "/PCA/0");
    state = objectAt(pca, "/PCAMarketingState/1");
    band = objectAt(state, "/CreditInterest/TierBandSet/0/TierBand/0");
  };

  describe("required fields, closed objects and types of the product and its marketing states", () => {
    it.each(["Identification", "Name"])("rejects a product without %s", (field) => {
      fresh();
      delete pca[field];
      expectRejected(schema, brand, "required", "/PCA/0");
    });
    it("rejects a product field the spec does not show", () => {
      fresh();
      pca.MonthlyFee = "0.00";
      expectRejected(schema, brand, "additionalProperties", "/PCA/0");
    });
    it("rejects an empty OverdraftTierBandSet", () => {
      fresh();
      objectAt(state, "/Overdraft").OverdraftTierBandSet = [];
      expectRejected(
        schema,
        brand,
        "minItems",
        "/PCA/0/PCAMarketingState/1/Overdraft/OverdraftTierBandSet",
      );
    });
    it("rejects a brand without products", () => {
      fresh();
      brand.PCA = [];
      expectRejected(schema, brand, "minItems", "/PCA");
    });
    it("rejects a brand without a PCA list", () => {
      fresh();
      delete brand.PCA;
      expectRejected(schema, brand, "required", "");
    });
    // OtherFeesCharges is required only of a product on sale: rule 9, in product-rules.test.ts.
    it.each(["Identification", "MarketingState"])(
      "rejects a marketing state without %s",
      (field) => {
        fresh();
        delete objectAt(pca, "/PCAMarketingState/0")[field];
        expectRejected(schema, brand, "required", "/PCA/0/PCAMarketingState/0");
      },
    );
    it("rejects a StateTenureLength written as text", () => {
      fresh();
      objectAt(pca, "/PCAMarketingState/0").StateTenureLength = "12";
      expectRejected(schema, brand, "type", "/PCA/0/PCAMarketingState/0/StateTenureLength");
    });
    it("accepts a fractional StateTenureLength", () => {
      fresh();
      objectAt(pca, "/PCAMarketingState/0").StateTenureLength = 1.5;
      expectAccepted(schema, brand);
    });
  });

  describe("types and enums", () => {
    it('rejects OnSaleIndicator "yes"', () => {
      fresh();
      pca.OnSaleIndicator = "yes";
      expectRejected(schema, brand, "type", "/PCA/0/OnSaleIndicator");
    });
    it("rejects an eligibility Indicator written as text", () => {
      fresh();
      objectAt(state, "/CreditInterest/TierBandSet/0/CreditInterestEligibility/2").Indicator =
        "true";
      expectRejected(
        schema,
        brand,
        "type",
        "/PCA/0/PCAMarketingState/1/CreditInterest/TierBandSet/0/CreditInterestEligibility/2/Indicator",
      );
    });
    it("rejects an AER written as a YAML number", () => {
      fresh();
      band.AER = 1.25;
      expectRejected(
        schema,
        brand,
        "type",
        "/PCA/0/PCAMarketingState/1/CreditInterest/TierBandSet/0/TierBand/0/AER",
      );
    });
    it("rejects a StateTenurePeriod of HalfYear (the spec spells it Half Year)", () => {
      fresh();
      objectAt(pca, "/PCAMarketingState/0").StateTenurePeriod = "HalfYear";
      expectRejected(schema, brand, "enum", "/PCA/0/PCAMarketingState/0/StateTenurePeriod");
    });
    it("rejects a Segment value outside the list", () => {
      fresh();
      pca.Segment = ["Everyday"];
      expectRejected(schema, brand, "enum", "/PCA/0/Segment/0");
    });
    it("rejects a CalculationFrequency of Fortnightly", () => {
      fresh();
      band.CalculationFrequency = "Fortnightly";
      expectRejected(
        schema,
        brand,
        "enum",
        "/PCA/0/PCAMarketingState/1/CreditInterest/TierBandSet/0/TierBand/0/CalculationFrequency",
      );
    });
  });

  describe("amount and rate patterns", () => {
    it("rejects an AER with a percent sign", () => {
      fresh();
      band.AER = "1.25%";
      expectRejected(
        schema,
        brand,
        "pattern",
        "/PCA/0/PCAMarketingState/1/CreditInterest/TierBandSet/0/TierBand/0/AER",
      );
    });
    it("rejects an AER with five decimals", () => {
      fresh();
      band.AER = "1.25001";
      expectRejected(
        schema,
        brand,
        "pattern",
        "/PCA/0/PCAMarketingState/1/CreditInterest/TierBandSet/0/TierBand/0/AER",
      );
    });
    it("rejects a TierValueMinimum with a thousands separator", () => {
      fresh();
      band.TierValueMinimum = "1,000";
      expectRejected(
        schema,
        brand,
        "pattern",
        "/PCA/0/PCAMarketingState/1/CreditInterest/TierBandSet/0/TierBand/0/TierValueMinimum",
      );
    });
    it("rejects a TierValueMaximum ending in a dot", () => {
      fresh();
      band.TierValueMaximum = "2500.";
      expectRejected(
        schema,
        brand,
        "pattern",
        "/PCA/0/PCAMarketingState/1/CreditInterest/TierBandSet/0/TierBand/0/TierValueMaximum",
      );
    });
    it("accepts a negative amount with four decimals", () => {
      fresh();
      band.TierValueMinimum = "-100.1234";
      expectAccepted(schema, brand);
    });
  });

  describe("required fields and item counts of credit interest", () => {
    it("rejects credit interest without a tier band set", () => {
      fresh();
      objectAt(state, "/CreditInterest").TierBandSet = [];
      expectRejected(
        schema,
        brand,
        "minItems",
        "/PCA/0/PCAMarketingState/1/CreditInterest/TierBandSet",
      );
    });
    it("rejects a tier band set without tier bands", () => {
      fresh();
      objectAt(state, "/CreditInterest/TierBandSet/0").TierBand = [];
      expectRejected(
        schema,
        brand,
        "minItems",
        "/PCA/0/PCAMarketingState/1/CreditInterest/TierBandSet/0/TierBand",
      );
    });
    it("rejects an empty CreditInterestEligibility list", () => {
      fresh();
      objectAt(state, "/CreditInterest/TierBandSet/0").CreditInterestEligibility = [];
      expectRejected(
        schema,
        brand,
        "minItems",
        "/PCA/0/PCAMarketingState/1/CreditInterest/TierBandSet/0/CreditInterestEligibility",
      );
    });
    it.each([
      "TierValueMinimum",
      "CalculationFrequency",
      "ApplicationFrequency",
      "FixedVariableInterestRateType",
      "AER",
    ])("rejects a tier band without %s", (field) => {
      fresh();
      delete band[field];
      expectRejected(
        schema,
        brand,
        "required",
        "/PCA/0/PCAMarketingState/1/CreditInterest/TierBandSet/0/TierBand/0",
      );
    });
    it("rejects an eligibility OtherType without Name", () => {
      fresh();
      delete objectAt(state, "/CreditInterest/TierBandSet/0/CreditInterestEligibility/2/OtherType")
        .Name;
      expectRejected(
        schema,
        brand,
        "required",
        "/PCA/0/PCAMarketingState/1/CreditInterest/TierBandSet/0/CreditInterestEligibility/2/OtherType",
      );
    });
    it("rejects an eligibility Description of 501 characters", () => {
      fresh();
      objectAt(state, "/CreditInterest/TierBandSet/0/CreditInterestEligibility/0").Description =
        "d".repeat(501);
      expectRejected(
        schema,
        brand,
        "maxLength",
        "/PCA/0/PCAMarketingState/1/CreditInterest/TierBandSet/0/CreditInterestEligibility/0/Description",
      );
    });
    it("rejects a FirstMarketedDate that is not a date", () => {
      fresh();
      objectAt(pca, "/PCAMarketingState/0").FirstMarketedDate = "2026-09-31";
      expectRejected(schema, brand, "format", "/PCA/0/PCAMarketingState/0/FirstMarketedDate");
    });
  });
});

describe.each([
  ["service-metrics-pca", "thistlecombe-bank.yaml"],
  ["service-metrics-bca", "thistlecombe-bank.yaml"],
] as const)("rules of the %s data set", (id, file) => {
  const schema = datasetById(id).brandSchema;
  let brand: JsonObject;
  const fresh = () => {
    brand = sample(id, file);
  };
  const incidents =
    "/OperationalSecurityIncidentMetrics/OperationalSecurityIncidentMetricsDetails/0";
  const matter = "/ServicesMatterAvailability/ServicesMatterAvailabilityDetails/0";

  describe("types", () => {
    it("rejects an IncidentCount of 1.5", () => {
      fresh();
      objectAt(
        brand,
        "/OperationalSecurityIncidentMetrics/OperationalSecurityIncidentMetricsDetails/0/IncidentDetails/0",
      ).IncidentCount = 1.5;
      expectRejected(schema, brand, "type", `${incidents}/IncidentDetails/0/IncidentCount`);
    });
    it("rejects an IncidentCount beyond int32", () => {
      fresh();
      objectAt(
        brand,
        "/OperationalSecurityIncidentMetrics/OperationalSecurityIncidentMetricsDetails/0/IncidentDetails/0",
      ).IncidentCount = 2 ** 31;
      expectRejected(schema, brand, "format", `${incidents}/IncidentDetails/0/IncidentCount`);
    });
    it("rejects a MetricsValue written as text", () => {
      fresh();
      objectAt(
        brand,
        "/CardReplacementTimeLine/CardReplacementTimeLineDetails/0/CardReplacementTimelineMetrics/0",
      ).MetricsValue = "5";
      expectRejected(
        schema,
        brand,
        "type",
        "/CardReplacementTimeLine/CardReplacementTimeLineDetails/0/CardReplacementTimelineMetrics/0/MetricsValue",
      );
    });
  });

  describe("enums", () => {
    it("rejects a 24HourHelp answer outside the availability answers", () => {
      fresh();
      objectAt(brand, "/ServicesMatterAvailability/ServicesMatterAvailabilityDetails/0")[
        "24HourHelp"
      ] = "Sometimes";
      expectRejected(schema, brand, "enum", `${matter}/24HourHelp`);
    });
    it("rejects a MatterType outside the list", () => {
      fresh();
      objectAt(
        brand,
        "/ServicesMatterAvailability/ServicesMatterAvailabilityDetails/0",
      ).MatterType = "Mortgages";
      expectRejected(schema, brand, "enum", `${matter}/MatterType`);
    });
    it("rejects a contact type that only branches use (Fax)", () => {
      fresh();
      objectAt(
        brand,
        "/ServiceMatterContactDetails/MatterAvailabilityMethod/0/ContactTypeDetails/0",
      ).ContactType = "Fax";
      expectRejected(
        schema,
        brand,
        "enum",
        "/ServiceMatterContactDetails/MatterAvailabilityMethod/0/ContactTypeDetails/0/ContactType",
      );
    });
  });

  describe("the spec's own spelling of complaints fields", () => {
    it("rejects the corrected spelling ComplaintsDataDetails", () => {
      fresh();
      const complaints = objectAt(brand, "/ComplaintsData");
      complaints.ComplaintsDataDetails = at(complaints, "/CompliantsDataDetails");
      delete complaints.CompliantsDataDetails;
      const errors = errorsOf(schema, brand);
      expect(errors.map((e) => [e.keyword, e.instancePath])).toEqual(
        expect.arrayContaining([
          ["required", "/ComplaintsData"],
          ["additionalProperties", "/ComplaintsData"],
        ]),
      );
    });
    it("rejects complaints details without CompliantsDataAvailable", () => {
      fresh();
      delete objectAt(brand, "/ComplaintsData/CompliantsDataDetails").CompliantsDataAvailable;
      expectRejected(schema, brand, "required", "/ComplaintsData/CompliantsDataDetails");
    });
  });

  describe("required fields, counts and lengths", () => {
    it("rejects a brand without BrandName", () => {
      fresh();
      delete brand.BrandName;
      expectRejected(schema, brand, "required", "");
    });
    it("accepts a brand with only BrandName", () => {
      expectAccepted(schema, { BrandName: "Thistlecombe Bank" });
    });
    it("rejects account opening details without AccountOpeningURL", () => {
      fresh();
      delete objectAt(brand, "/AccountOpeningTimeLineDetails").AccountOpeningURL;
      expectRejected(schema, brand, "required", "/AccountOpeningTimeLineDetails");
    });
    it("rejects a contact channel without contacts", () => {
      fresh();
      objectAt(
        brand,
        "/ServiceMatterContactDetails/MatterAvailabilityMethod/0",
      ).ContactTypeDetails = [];
      expectRejected(
        schema,
        brand,
        "minItems",
        "/ServiceMatterContactDetails/MatterAvailabilityMethod/0/ContactTypeDetails",
      );
    });
    it("rejects a non-standard availability period of eight days", () => {
      fresh();
      const method = objectAt(brand, `${matter}/ServiceMatterAvailabilityMethod/0`);
      const day = {
        Name: "Monday",
        AvailableHours: [{ OpeningTime: "09:00", ClosingTime: "17:00" }],
      };
      method.NonStandardAvailability = [
        { Name: "Long week", Day: new Array<typeof day>(8).fill(day) },
      ];
      expectRejected(
        schema,
        brand,
        "maxItems",
        `${matter}/ServiceMatterAvailabilityMethod/0/NonStandardAvailability/0/Day`,
      );
    });
    it("rejects brand Notes of 2001 characters", () => {
      fresh();
      brand.Notes = "n".repeat(2001);
      expectRejected(schema, brand, "maxLength", "/Notes");
    });
    it("rejects a CompliantsInfoURL of 501 characters", () => {
      fresh();
      objectAt(brand, "/ComplaintsData/CompliantsDataDetails").CompliantsInfoURL =
        `https://example.com/${"x".repeat(481)}`;
      expectRejected(
        schema,
        brand,
        "maxLength",
        "/ComplaintsData/CompliantsDataDetails/CompliantsInfoURL",
      );
    });
    it("rejects a field the spec does not list on the brand", () => {
      fresh();
      brand.Website = "https://www.example.com";
      expectRejected(schema, brand, "additionalProperties", "");
    });
  });

  describe("formats", () => {
    it("rejects a PublicationDate written day first", () => {
      fresh();
      brand.PublicationDate = "14/08/2026";
      expectRejected(schema, brand, "format", "/PublicationDate");
    });
  });
});

describe("rules of the response envelope", () => {
  const dataset = datasetById("branches");
  const schema = dataset.envelopeSchema;
  let envelope: JsonObject;
  const fresh = () => {
    envelope = structuredClone(envelopeOf(dataset));
  };

  it("rejects a LastUpdated without a time", () => {
    fresh();
    objectAt(envelope, "/meta").LastUpdated = "2026-08-14";
    expectRejected(schema, envelope, "format", "/meta/LastUpdated");
  });
  it("rejects a LastUpdated without a time zone", () => {
    fresh();
    objectAt(envelope, "/meta").LastUpdated = "2026-08-14T08:00:00";
    expectRejected(schema, envelope, "format", "/meta/LastUpdated");
  });
  it("rejects an Agreement that differs from the spec's text", () => {
    fresh();
    objectAt(envelope, "/meta").Agreement = `${SPEC_AGREEMENT}.`;
    expectRejected(schema, envelope, "const", "/meta/Agreement");
  });
  it("rejects a fractional TotalResults", () => {
    fresh();
    objectAt(envelope, "/meta").TotalResults = 2.5;
    expectRejected(schema, envelope, "type", "/meta/TotalResults");
  });
  it("rejects a negative TotalResults", () => {
    fresh();
    objectAt(envelope, "/meta").TotalResults = -1;
    expectRejected(schema, envelope, "minimum", "/meta/TotalResults");
  });
  it("rejects a License that is not an absolute address", () => {
    fresh();
    objectAt(envelope, "/meta").License = "open-licence";
    expectRejected(schema, envelope, "format", "/meta/License");
  });
  it.each(["LastUpdated", "TotalResults", "Agreement", "License", "TermsOfUse"])(
    "rejects meta without %s",
    (field) => {
      fresh();
      delete objectAt(envelope, "/meta")[field];
      expectRejected(schema, envelope, "required", "/meta");
    },
  );
  it("rejects a meta field the spec does not list", () => {
    fresh();
    objectAt(envelope, "/meta").FirstPage = "https://www.example.com";
    expectRejected(schema, envelope, "additionalProperties", "/meta");
  });
  it("rejects a data item without brands", () => {
    fresh();
    objectAt(envelope, "/data/0").Brand = [];
    expectRejected(schema, envelope, "minItems", "/data/0/Brand");
  });
  it("rejects a data item with a field besides Brand", () => {
    fresh();
    objectAt(envelope, "/data/0").Region = "North";
    expectRejected(schema, envelope, "additionalProperties", "/data/0");
  });
  it("checks each brand against the brand schema", () => {
    fresh();
    objectAt(envelope, "/data/0/Brand/0/Branch/0/PostalAddress").Country = "XGBX";
    expectRejected(schema, envelope, "pattern", "/data/0/Brand/0/Branch/0/PostalAddress/Country");
  });
  it.each(SPEC_DATASETS.map(([, d]) => [d.envelopeSchema]))(
    "rejects a response without data in %s",
    (envelopeSchema) => {
      fresh();
      delete envelope.data;
      expectRejected(envelopeSchema, envelope, "required", "");
    },
  );
});

describe("rules of the site settings", () => {
  let site: JsonObject;
  const fresh = () => {
    site = objectAt(structuredClone(readYaml(SITE_FILE)), "");
  };

  it("rejects a License without a scheme", () => {
    fresh();
    site.License = "www.example.com/open-licence";
    expectRejected(SITE_SCHEMA, site, "format", "/License");
  });
  it("rejects TermsOfUse with a space in it", () => {
    fresh();
    site.TermsOfUse = "https://www.example.com/terms of use";
    expectRejected(SITE_SCHEMA, site, "format", "/TermsOfUse");
  });
  it("rejects settings without TermsOfUse", () => {
    fresh();
    delete site.TermsOfUse;
    expectRejected(SITE_SCHEMA, site, "required", "");
  });
  it("rejects a setting it does not know", () => {
    fresh();
    site.Licence = at(site, "/License");
    expectRejected(SITE_SCHEMA, site, "additionalProperties", "");
  });
});
