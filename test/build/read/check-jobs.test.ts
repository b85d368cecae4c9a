import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { discoverContent } from "../../../build/read/content.js";
import { contentJobs } from "../../../build/read/check-jobs.js";

const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((f) => rm(f, { recursive: true, force: true })));
});

async function contentFolder(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "jobs-"));
  folders.push(root);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(root, "content", path, ".."), { recursive: true });
    await writeFile(join(root, "content", path), text);
  }
  return root;
}

describe("the check jobs of a content folder", () => {
  it("gives site.yaml the site schema and each brand file its data set's schema and record rules", async () => {
    const root = await contentFolder({
      "site.yaml": "License: x\n",
      "atms/fernbrook.yaml": "BrandName: Fernbrook\n",
      "branches/fernbrook/north.yaml": "BrandName: Fernbrook\n",
    });
    const tree = await discoverContent(join(root, "content"), root);
    const jobs = await contentJobs(tree);
    expect(
      jobs.map(({ file, schema, recordsKey, identity }) => [file, schema, recordsKey, identity]),
    ).toEqual([
      ["content/site.yaml", "site.schema.json", null, []],
      [
        "content/branches/fernbrook/north.yaml",
        "branch-brand.schema.json",
        "Branch",
        ["Identification", "SequenceNumber"],
      ],
      ["content/atms/fernbrook.yaml", "atm-brand.schema.json", "ATM", ["Identification"]],
    ]);
    expect(jobs[0]!.text).toBe("License: x\n");
  });

  it("has no site job when site.yaml is missing, so no brand file is taken for it", async () => {
    const root = await contentFolder({ "atms/fernbrook.yaml": "BrandName: Fernbrook\n" });
    const jobs = await contentJobs(await discoverContent(join(root, "content"), root));
    expect(jobs.map((job) => [job.file, job.schema])).toEqual([
      ["content/atms/fernbrook.yaml", "atm-brand.schema.json"],
    ]);
  });
});
