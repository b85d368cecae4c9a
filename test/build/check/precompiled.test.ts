/**
 * The validators compiled ahead of time (build/check/precompiled.ts): the build takes them for
 * the project's schemas, they give exactly what ajv compiling the same schemas gives (verdicts and
 * every error with its value and schema), and schemas they were not made from are compiled as before.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { AnySchemaObject, ErrorObject } from "ajv";
import fg from "fast-glob";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { AJV_OPTIONS, createAjv, readSchemas, validatorFor } from "../../../build/check/schemas.js";
import { writeValidators } from "../../../build/check/precompile.js";
import { schemasDigest, validatorModule } from "../../../build/check/precompiled.js";
import { DATASETS } from "../../../build/core/datasets.js";
import { CONTENT_DIR } from "../../../build/core/paths.js";

const require = createRequire(import.meta.url);

/** Every sample file with the brand schema it is checked against. */
const samples = DATASETS.flatMap((dataset) =>
  fg
    .sync("**/*.yaml", { cwd: join(CONTENT_DIR, dataset.contentDir), absolute: true })
    .sort()
    .map((file) => ({ file, schema: dataset.brandSchema })),
);

type Path = (string | number)[];

/** Paths to the leaves of `value`, depth first, at most `limit`. */
function leaves(value: unknown, limit: number, path: Path = [], out: Path[] = []): Path[] {
  if (out.length >= limit) return out;
  if (Array.isArray(value)) value.forEach((v, i) => leaves(v, limit, [...path, i], out));
  else if (typeof value === "object" && value !== null) {
    for (const [k, v] of Object.entries(value)) leaves(v, limit, [...path, k], out);
  } else out.push(path);
  return out;
}

function at(document: unknown, path: Path): unknown {
  return path.reduce<unknown>((n, k) => (n as Record<string | number, unknown>)[k], document);
}

function withValue(document: unknown, path: Path, value: unknown): unknown {
  const copy = structuredClone(document) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  if (value === undefined) delete node[path.at(-1)!];
  else node[path.at(-1)!] = value;
  return copy;
}

/**
 * The sample itself, then one break per leaf (up to 60): a string becomes a number and a
 * one-letter string (a type, an enum, a pattern, a format or a length fails), anything else a
 * string; then a field no schema has, at the top and in the first record, and each field of that
 * record left out.
 */
function variants(document: unknown): unknown[] {
  const out: unknown[] = [document];
  for (const path of leaves(document, 60)) {
    const old = path.reduce<unknown>(
      (n, k) => (n as Record<string | number, unknown>)[k],
      document,
    );
    if (typeof old === "string")
      out.push(withValue(document, path, 7), withValue(document, path, "x"));
    else out.push(withValue(document, path, "x"));
  }
  out.push(withValue(document, ["Unknown"], 1));
  // The first record: the path to the first list item that is a set of fields.
  const inList = leaves(document, 1000).find((p) => p.some((k) => typeof k === "number"));
  if (inList) {
    const record = inList.slice(0, inList.findIndex((k) => typeof k === "number") + 1);
    out.push(withValue(document, [...record, "Unknown"], 1));
    // And each field of that record taken away in turn (a required one fails).
    const fields = Object.keys(at(document, record) as object);
    for (const field of fields) out.push(withValue(document, [...record, field], undefined));
  }
  return out;
}

describe("precompiled validators", () => {
  const schemas = readSchemas();

  it("are what the build uses for the project's schemas, one module per schema file", () => {
    const ajv = createAjv(schemas);
    const digest = schemasDigest(schemas, AJV_OPTIONS);
    expect(schemas.size).toBeGreaterThan(10);
    for (const name of schemas.keys()) {
      expect(validatorFor(ajv, name), name).toBe(require(validatorModule(digest, name)));
    }
  });

  it("are written once per version of the schemas: compiling again writes nothing", () => {
    expect(writeValidators(schemas).written).toBe(false);
  });

  it("give the verdict and every error (value and schema included) ajv gives compiling the schemas now", () => {
    const precompiled = createAjv(schemas);
    const compiled = createAjv(schemas);
    let documents = 0;
    let failing = 0;
    const keywords = new Set<string>();
    for (const { file, schema } of samples) {
      const pre = validatorFor(precompiled, schema);
      const now = compiled.getSchema(schema)!;
      expect(pre).not.toBe(now);
      for (const document of variants(parse(readFileSync(file, "utf8")))) {
        documents++;
        const verdict = pre(document);
        expect(now(document), file).toBe(verdict);
        const errors: ErrorObject[] = pre.errors ?? [];
        expect(errors, file).toEqual(now.errors ?? []);
        if (!verdict) failing++;
        for (const error of errors) keywords.add(error.keyword);
      }
    }
    // The comparison covered valid files, many broken ones, and the keywords the schemas use.
    expect(documents).toBeGreaterThan(500);
    expect(failing).toBeGreaterThan(documents / 2);
    for (const keyword of [
      "type",
      "enum",
      "pattern",
      "format",
      "additionalProperties",
      "required",
    ]) {
      expect(keywords, keyword).toContain(keyword);
    }
  });

  it("are not used for schemas they were not made from: those are compiled by ajv", () => {
    const changed = new Map(schemas);
    const site = structuredClone(changed.get("site.schema.json")!) as AnySchemaObject & {
      required: string[];
      properties: Record<string, unknown>;
    };
    site.properties.Added = { type: "string" };
    site.required = [...site.required, "Added"];
    changed.set("site.schema.json", site);
    const ajv = createAjv(changed);
    const validate = validatorFor(ajv, "site.schema.json");
    expect(validate).not.toBe(
      require(validatorModule(schemasDigest(schemas, AJV_OPTIONS), "site.schema.json")),
    );
    const sample = parse(readFileSync(join(CONTENT_DIR, "site.yaml"), "utf8")) as object;
    expect(validate(sample)).toBe(false);
    expect(validate.errors?.map((e) => e.params)).toEqual([{ missingProperty: "Added" }]);
    expect(validate({ ...sample, Added: "yes" })).toBe(true);
  });
});
