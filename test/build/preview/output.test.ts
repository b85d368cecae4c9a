import { describe, expect, it } from "vitest";
import { previewOutput, previewVersion } from "../../../build/preview/output.js";
import type { Manifest } from "../../../contract/manifest.js";
import { DECIDED } from "../../helpers/spec-values.js";
import { parseJson } from "../../helpers/json.js";
import { etag, files, manifest, problem, warning } from "../../helpers/preview-fixtures.js";

describe("what the preview publishes", () => {
  it("keeps every data set's bytes and replaces the page with the preview's, identity only", () => {
    const out = previewOutput({ files, manifest }, [problem]);
    expect(out.files.find((f) => f.path === "std/v2.2/branches.json")?.bytes).toBe("{}");
    expect(out.files.map((f) => f.path)).not.toContain("index.html.br");
    const landing = out.manifest.documents.find((d) => d.path === "/")!;
    expect(Object.keys(landing.variants)).toEqual(["identity"]);
    const html = String(out.files.find((f) => f.path === "index.html")!.bytes);
    expect(html).toContain('class="problems"');
    expect(out.manifest.datasets).toEqual(manifest.datasets);
  });

  it("shows the warnings it is given, and a change in them makes a new version", () => {
    const plain = previewOutput({ files, manifest }, []);
    const warned = previewOutput({ files, manifest }, [], [warning]);
    const html = (out: typeof plain) =>
      String(out.files.find((f) => f.path === "index.html")!.bytes);
    expect(html(plain)).not.toContain('class="warnings"');
    expect(html(warned)).toContain('class="warnings"');
    expect(html(warned)).toContain("content/atms/a&amp;b.yaml:57:13");
    expect(warned.version).not.toBe(plain.version);
  });

  it("serves the version and the script as documents of the manifest", () => {
    const out = previewOutput({ files, manifest }, []);
    const paths = out.manifest.documents.map((d) => d.path);
    expect(paths).toContain(DECIDED.preview.versionPath);
    expect(paths).toContain(DECIDED.preview.scriptPath);
    const written = parseJson(String(out.files.find((f) => f.path === "manifest.json")!.bytes));
    expect(written).toEqual(out.manifest);
  });

  it("says, at /_preview/publication.json, that its page replaces the build's page, with both tags", () => {
    const out = previewOutput({ files, manifest }, []);
    const entry = out.manifest.documents.find((d) => d.path === "/_preview/publication.json")!;
    expect(entry.mediaType).toBe("application/json");
    const bytes = out.files.find((f) => `/${f.path}` === entry.variants.identity.asset)!.bytes;
    const built = manifest.documents.find((d) => d.path === "/")!.variants.identity.etag;
    const served = out.manifest.documents.find((d) => d.path === "/")!.variants.identity.etag;
    expect(served).not.toBe(built);
    expect(parseJson(String(bytes))).toEqual({ replaced: [{ path: "/", built, served }] });
  });

  it("changes the version with the data or the problems, and only then", () => {
    const same = previewVersion(manifest, []);
    expect(previewVersion(manifest, [])).toBe(same);
    expect(previewVersion(manifest, [problem])).not.toBe(same);
    const edited: Manifest = {
      ...manifest,
      datasets: [
        {
          ...manifest.datasets[0]!,
          variants: { identity: { ...manifest.datasets[0]!.variants.identity, etag: etag("d") } },
        },
      ],
    };
    expect(previewVersion(edited, [])).not.toBe(same);
  });
});
