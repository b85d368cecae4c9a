/**
 * Help while typing: every content file is tied to the schema the build checks it against, both
 * by its `# yaml-language-server: $schema=` line and by the workspace's `yaml.schemas` setting.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import fg from "fast-glob";
import { describe, expect, it } from "vitest";
import { SITE_FILE } from "../../build/read/content.js";
import { DATASETS } from "../../build/core/datasets.js";
import { CONTENT_DIR, PROJECT_ROOT, SCHEMA_DIR } from "../../build/core/paths.js";
import { SITE_SCHEMA } from "../../build/read/check-jobs.js";
import { SPEC_DATASETS } from "../helpers/datasets.js";
import { arrayAt, objectAt, parseJson, pointer } from "../helpers/json.js";

const MODELINE = /^# yaml-language-server: \$schema=(\S+)\s*$/;

/** The schema file the build checks a content file against, by its path under content/. */
function expectedSchema(relativePath: string): string {
  if (relativePath === SITE_FILE) return join(SCHEMA_DIR, SITE_SCHEMA);
  const folder = relativePath.split("/")[0];
  const dataset = DATASETS.find((d) => d.contentDir === folder);
  if (!dataset || !relativePath.includes("/")) throw new Error(`${relativePath} is not content`);
  return join(SCHEMA_DIR, dataset.brandSchema);
}

async function contentFiles(): Promise<string[]> {
  return (await fg("**/*.{yaml,yml}", { cwd: CONTENT_DIR })).sort();
}

async function yamlSchemas(): Promise<Record<string, string[]>> {
  const settings = parseJson(await readFile(join(PROJECT_ROOT, ".vscode/settings.json"), "utf8"));
  return objectAt(settings, pointer("yaml.schemas")) as Record<string, string[]>;
}

/**
 * yaml-language-server's own matching of a `yaml.schemas` pattern: `*` stands for any characters
 * (slashes too), everything else is literal, and the pattern must match the end of the path.
 */
function languageServerMatch(pattern: string, absolutePath: string): boolean {
  const source = pattern
    .split("*")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\,#\s-]/g, "\\$&"))
    .join(".*");
  return new RegExp(`${source}$`).test(absolutePath);
}

/** Schemas (absolute paths) that `yaml.schemas` gives a file, by either reading of the globs. */
async function settingsSchemasFor(
  schemas: Record<string, string[]>,
  root: string,
  relativeToRoot: string[],
): Promise<Map<string, { server: string[]; glob: string[] }>> {
  const found = new Map(
    relativeToRoot.map((f) => [f, { server: [] as string[], glob: [] as string[] }]),
  );
  for (const [schema, patterns] of Object.entries(schemas)) {
    const schemaPath = resolve(PROJECT_ROOT, schema);
    for (const file of relativeToRoot) {
      if (patterns.some((p) => languageServerMatch(p, join(root, file))))
        found.get(file)!.server.push(schemaPath);
    }
    for (const file of await fg(patterns, { cwd: root })) found.get(file)?.glob.push(schemaPath);
  }
  return found;
}

describe("schema help for editors", () => {
  it("starts every content file with a modeline naming the schema the build uses for its folder", async () => {
    const files = await contentFiles();
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const firstLine = (await readFile(join(CONTENT_DIR, file), "utf8")).split("\n")[0]!;
      const match = MODELINE.exec(firstLine);
      expect(match, `${file} has no yaml-language-server modeline`).not.toBeNull();
      // A modeline path is relative to the file itself.
      const schema = resolve(dirname(join(CONTENT_DIR, file)), match![1]!);
      expect(existsSync(schema), `${file}: ${match![1]} does not exist`).toBe(true);
      expect(schema, file).toBe(expectedSchema(file));
    }
  });

  it("maps every schema in yaml.schemas to an existing file under schemas/", async () => {
    for (const schema of Object.keys(await yamlSchemas())) {
      const path = resolve(PROJECT_ROOT, schema);
      expect(path.startsWith(SCHEMA_DIR), schema).toBe(true);
      expect(existsSync(path), schema).toBe(true);
    }
  });

  it("gives every content file exactly its folder's schema through yaml.schemas", async () => {
    const schemas = await yamlSchemas();
    const files = (await contentFiles()).map((f) => `content/${f}`);
    const found = await settingsSchemasFor(schemas, PROJECT_ROOT, files);
    for (const [file, { server, glob }] of found) {
      const expected = [expectedSchema(file.slice("content/".length))];
      expect(server, `${file}, as yaml-language-server matches`).toEqual(expected);
      expect(glob, `${file}, as a glob matches`).toEqual(expected);
    }
  });

  it("covers the layouts editors may add: .yml files, brand folders and subfolders", async () => {
    const root = await mkdtemp(join(tmpdir(), "opendata-edge-editor-"));
    try {
      const files = [
        `content/${SITE_FILE}`,
        ...SPEC_DATASETS.flatMap(([, d]) => [
          `content/${d.contentDir}/brand.yaml`,
          `content/${d.contentDir}/brand.yml`,
          `content/${d.contentDir}/brand/part.yaml`,
          `content/${d.contentDir}/brand/region/north.yml`,
        ]),
      ];
      for (const file of files) {
        await mkdir(dirname(join(root, file)), { recursive: true });
        await writeFile(join(root, file), "");
      }
      const found = await settingsSchemasFor(await yamlSchemas(), root, files);
      for (const [file, { server, glob }] of found) {
        const expected = [expectedSchema(file.slice("content/".length))];
        expect(server, file).toEqual(expected);
        expect(glob, file).toEqual(expected);
      }
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it("recommends the YAML extension that reads these settings", async () => {
    const extensions = parseJson(
      await readFile(join(PROJECT_ROOT, ".vscode/extensions.json"), "utf8"),
    );
    expect(arrayAt(extensions, "/recommendations")).toContain("redhat.vscode-yaml");
  });
});
