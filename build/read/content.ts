/**
 * Step 1, read: finds the content files and groups them into brands. A brand is either one file,
 * content/<data set>/<brand>.yaml, or a folder, content/<data set>/<brand>/**.yaml, whose files are
 * joined in byte order of their paths. Files that fit nowhere are reported, not silently skipped.
 */
import { readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import fg from "fast-glob";
import { DATASETS, type DatasetDefinition, type DatasetId } from "../core/datasets.js";
import { atFileStart, compareStrings, type Diagnostic } from "../core/diagnostics.js";
import { closest } from "../core/closest.js";
import { displayPath } from "../core/paths.js";

/** The publisher-wide settings file, relative to the content folder. */
export const SITE_FILE = "site.yaml";

export interface ContentFile {
  /** Absolute path. */
  readonly path: string;
  /** Path as printed in messages: relative to the working folder, `/`-separated. */
  readonly display: string;
}

/** One brand of one data set: a single file, or the files of a brand folder in join order. */
export interface BrandUnit {
  readonly dataset: DatasetDefinition;
  /** File or folder name without extension, e.g. "fernbrook-bank". */
  readonly slug: string;
  readonly files: readonly ContentFile[];
}

export interface ContentTree {
  /** The content's site.yaml, when it has one. */
  readonly siteFile: ContentFile | undefined;
  /** Brand units per data set, in publication order (byte order of their paths). */
  readonly units: ReadonlyMap<DatasetId, readonly BrandUnit[]>;
  /** Files that are not where any data set looks. */
  readonly problems: readonly Diagnostic[];
}

const YAML_FILES = "**/*.{yaml,yml}";
/**
 * What the glob above matches, for a list of paths from elsewhere (a git tree): a .yaml or .yml
 * name, and no hidden name on the way (fast-glob leaves out dot files and folders by default).
 */
export function isContentPath(path: string): boolean {
  return /\.ya?ml$/.test(path) && !path.split("/").some((part) => part.startsWith("."));
}

export async function discoverContent(
  contentDir: string,
  cwd = process.cwd(),
): Promise<ContentTree> {
  const found = await fg(YAML_FILES, {
    cwd: contentDir,
    onlyFiles: true,
    followSymbolicLinks: false,
  });
  return contentTreeOf(found, contentDir, cwd);
}

/**
 * The content tree of the YAML files `found` (paths relative to `contentDir`, `/`-separated, as
 * the glob above finds them on disk, or as a git tree lists them for a past version of the
 * content: build/history/).
 */
export function contentTreeOf(
  found: readonly string[],
  contentDir: string,
  cwd = process.cwd(),
): ContentTree {
  found = [...found].sort(compareStrings);
  const display = (rel: string) => displayPath(cwd, join(contentDir, rel));
  const byDir = new Map(DATASETS.map((d) => [d.contentDir, d]));
  const units = new Map<DatasetId, Map<string, ContentFile[]>>(
    DATASETS.map((d) => [d.id, new Map()]),
  );
  const problems: Diagnostic[] = [];
  let siteFile: ContentFile | undefined;

  for (const rel of found) {
    const file: ContentFile = { path: join(contentDir, rel), display: display(rel) };
    const [top, second, ...rest] = rel.split("/");
    if (second === undefined) {
      if (top === SITE_FILE) siteFile = file;
      else
        problems.push(
          misplaced(
            file,
            `files at the top of the content folder are not published (only ${SITE_FILE} is read there); move it into a data set folder: ${folderList()}`,
          ),
        );
      continue;
    }
    const dataset = byDir.get(top!);
    if (!dataset) {
      const guess = closest(top!, [...byDir.keys()]);
      problems.push(
        misplaced(
          file,
          `"${top}" is not a data set folder${guess ? `; did you mean "${guess}"?` : `; use one of ${folderList()}`}`,
        ),
      );
      continue;
    }
    const slug = rest.length === 0 ? second.replace(/\.ya?ml$/, "") : second;
    const brands = units.get(dataset.id)!;
    const files = brands.get(slug) ?? [];
    const isFolder = rest.length > 0;
    const clash = files.find((f) => isBrandFile(f, contentDir) !== !isFolder);
    if (clash) {
      problems.push(
        misplaced(file, `brand "${slug}" is both a file and a folder (${clash.display}); keep one`),
      );
      continue;
    }
    files.push(file);
    brands.set(slug, files);
  }

  const grouped = new Map<DatasetId, BrandUnit[]>();
  for (const dataset of DATASETS) {
    const brands = [...units.get(dataset.id)!.entries()].sort(([a], [b]) => compareStrings(a, b));
    grouped.set(
      dataset.id,
      brands.map(([slug, files]) => ({ dataset, slug, files })),
    );
  }
  return { siteFile, units: grouped, problems };
}

function isBrandFile(file: ContentFile, contentDir: string): boolean {
  return relative(contentDir, file.path).split(sep).length === 2;
}

function misplaced(file: ContentFile, message: string): Diagnostic {
  return atFileStart(file.display, "content", message);
}

function folderList(): string {
  return DATASETS.map((d) => `${d.contentDir}/`).join(", ");
}

/** Reads a content file as UTF-8 text. */
export function readContent(file: ContentFile): Promise<string> {
  return readFile(file.path, "utf8");
}
