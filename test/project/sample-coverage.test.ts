/**
 * Proof that the sample content documents every field: each brand schema is walked (following $ref
 * into common.schema.json, through properties, items and allOf) to list every property path, and
 * the samples of that data set must use each of them at least once.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { AnySchemaObject } from "ajv";
import fg from "fast-glob";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { DATASETS, type DatasetDefinition } from "../../build/core/datasets.js";
import { CONTENT_DIR } from "../../build/core/paths.js";
import { readSchemas } from "../../build/check/schemas.js";
import { SPEC_DATASETS } from "../helpers/datasets.js";

const schemas = readSchemas();

/** Keywords that would hide properties from the walk below; the schemas must not use them. */
const UNWALKED = ["anyOf", "oneOf", "not", "if", "patternProperties", "additionalItems"];

/** Resolves a `$ref` written in `file`: `other.schema.json#/pointer` or `#/pointer`. */
function resolveRef(file: string, ref: string): { file: string; schema: AnySchemaObject } {
  const [target = "", pointer = ""] = ref.split("#");
  const targetFile = target === "" ? file : target;
  let node: unknown = schemas.get(targetFile);
  if (node === undefined) throw new Error(`${file}: $ref ${ref} names no schema file`);
  for (const token of pointer.split("/").slice(1)) {
    node = (node as Record<string, unknown>)[token.replace(/~1/g, "/").replace(/~0/g, "~")];
    if (node === undefined) throw new Error(`${file}: $ref ${ref} points nowhere`);
  }
  return { file: targetFile, schema: node as AnySchemaObject };
}

/**
 * Every property path a schema allows, e.g. `Branch[].PostalAddress.PostCode`; `[]` marks the items
 * of an array.
 */
function schemaPaths(
  file: string,
  schema: AnySchemaObject,
  prefix = "",
  out = new Set<string>(),
  refs: readonly string[] = [],
): Set<string> {
  for (const keyword of UNWALKED) {
    if (keyword in schema) throw new Error(`${file}: the coverage walk does not follow ${keyword}`);
  }
  if (typeof schema.$ref === "string") {
    const target = resolveRef(file, schema.$ref);
    const id = `${target.file}${schema.$ref.slice(schema.$ref.indexOf("#"))}`;
    if (refs.includes(id)) throw new Error(`recursive schema at ${id}`);
    schemaPaths(target.file, target.schema, prefix, out, [...refs, id]);
  }
  for (const sub of (schema.allOf ?? []) as AnySchemaObject[]) {
    schemaPaths(file, sub, prefix, out, refs);
  }
  for (const [name, sub] of Object.entries(
    (schema.properties ?? {}) as Record<string, AnySchemaObject>,
  )) {
    const path = prefix === "" ? name : `${prefix}.${name}`;
    out.add(path);
    schemaPaths(file, sub, path, out, refs);
  }
  if (schema.items && typeof schema.items === "object" && !Array.isArray(schema.items)) {
    schemaPaths(file, schema.items as AnySchemaObject, `${prefix}[]`, out, refs);
  }
  return out;
}

/** Every property path a YAML value uses, in the same notation. */
function dataPaths(value: unknown, prefix = "", out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) dataPaths(item, `${prefix}[]`, out);
  } else if (value !== null && typeof value === "object") {
    for (const [name, sub] of Object.entries(value)) {
      const path = prefix === "" ? name : `${prefix}.${name}`;
      out.add(path);
      dataPaths(sub, path, out);
    }
  }
  return out;
}

function brandSchemaPaths(dataset: DatasetDefinition): Set<string> {
  const file = dataset.brandSchema;
  const schema = schemas.get(file);
  if (!schema) throw new Error(`schemas/${file} does not exist`);
  return schemaPaths(file, schema);
}

function samplePaths(dataset: DatasetDefinition): Set<string> {
  const files = fg.sync("**/*.{yaml,yml}", {
    cwd: join(CONTENT_DIR, dataset.contentDir),
    absolute: true,
  });
  const used = new Set<string>();
  for (const file of files) dataPaths(parse(readFileSync(file, "utf8")), "", used);
  return used;
}

describe("the schema walk", () => {
  const byId = (id: string) => DATASETS.find((d) => d.id === id)!;

  it("follows $ref into common.schema.json and through arrays", () => {
    expect(brandSchemaPaths(byId("branches"))).toContain(
      "Branch[].Availability.NonStandardAvailability.Day[].OpeningHours[].ClosingTime",
    );
  });

  it("follows allOf, so the branch address keeps every shared address field", () => {
    const paths = brandSchemaPaths(byId("branches"));
    for (const field of ["AddressLine", "PostCode", "GeoLocation.GeographicCoordinates.Latitude"]) {
      expect(paths).toContain(`Branch[].PostalAddress.${field}`);
    }
  });

  it("reaches the deepest service metrics field", () => {
    expect(brandSchemaPaths(byId("service-metrics-pca"))).toContain(
      "ServicesMatterAvailability.ServicesMatterAvailabilityDetails[].ServiceMatterAvailabilityMethod[].NonStandardAvailability[].Day[].AvailableHours[].OpeningTime",
    );
  });

  it("follows $ref into product-common.schema.json from the PCA marketing state", () => {
    expect(brandSchemaPaths(byId("personal-current-accounts"))).toContain(
      "PCA[].PCAMarketingState[].Eligibility.AgeEligibility.MaximumAge",
    );
  });

  it("reaches the cap nested in an overdraft fee of a business account's overdraft tier band", () => {
    expect(brandSchemaPaths(byId("business-current-accounts"))).toContain(
      "BCA[].BCAMarketingState[].Overdraft.OverdraftTierBandSet[].OverdraftTierBand[].OverdraftFeesCharges[].OverdraftFeeChargeDetail[].OverdraftFeeChargeCap.OtherFeeType[].Description",
    );
  });

  it("reaches the SME field the standard spells OtherSICCodeExluded", () => {
    expect(brandSchemaPaths(byId("unsecured-sme-loans"))).toContain(
      "SMELoan[].SMELoanMarketingState[].Eligibility.IndustryEligibility.OtherSICCodeExluded[].Code",
    );
  });

  it("finds the same fields in the BCA brand as in the PCA brand", () => {
    expect([...brandSchemaPaths(byId("service-metrics-bca"))]).toEqual([
      ...brandSchemaPaths(byId("service-metrics-pca")),
    ]);
  });
});

describe.each(SPEC_DATASETS)("samples of %s", (_id, dataset) => {
  it(`use every field of ${dataset.brandSchema}`, () => {
    const used = samplePaths(dataset);
    const unused = [...brandSchemaPaths(dataset)].filter((path) => !used.has(path));
    expect(unused, `fields no sample in content/${dataset.contentDir}/ uses`).toEqual([]);
  });

  it(`use no field ${dataset.brandSchema} does not define`, () => {
    const defined = brandSchemaPaths(dataset);
    const unknown = [...samplePaths(dataset)].filter((path) => !defined.has(path));
    expect(unknown).toEqual([]);
  });
});
