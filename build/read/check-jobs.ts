/**
 * Step 1, read: the content tree turned into check jobs, one per file, each naming the schema and
 * the record rules its file must satisfy, and its text or, where the last build read the same
 * text, only its hash (texts.ts).
 */
import { readContent, type BrandUnit, type ContentFile, type ContentTree } from "./content.js";
import { DATASETS } from "../core/datasets.js";
import { ContentTexts } from "./texts.js";

/** The schema site.yaml must satisfy. */
export const SITE_SCHEMA = "site.schema.json";

/** One file to check, with everything checking it needs; plain data, so it can cross threads. */
export interface CheckJob {
  /** Path as printed in messages. */
  readonly file: string;
  readonly text: string;
  /** Schema file the document must satisfy. */
  readonly schema: string;
  readonly recordsKey: string | null;
  readonly identity: readonly string[];
}

/**
 * A content file to check, before its text is needed: its check's cache key needs only the
 * text's hash, and only a file the cache has no result for is read (when this build has not).
 */
export interface FileJob extends Omit<CheckJob, "text"> {
  /** Absolute path. */
  readonly path: string;
  /** The text's SHA-256, hex (texts.ts). */
  readonly hash: string;
  /** The text, when this build read it. */
  readonly text: string | undefined;
  /**
   * Why the file could not be read, when it could not: a problem at the file (check/steps.ts),
   * not a fault of the build. Listed, then gone or unreadable: a name that is not UTF-8 (the
   * listing decodes it with U+FFFD in its place, naming no file), a broken permission, a race.
   */
  readonly unreadable?: string;
}

/** The job of one file, its text read when the job is to be checked and this build has not. */
export async function withText(job: FileJob): Promise<CheckJob> {
  const { file, schema, recordsKey, identity } = job;
  const text = job.text ?? (await readContent({ path: job.path, display: file }));
  return { file, text, schema, recordsKey, identity };
}

async function fileJob(
  file: ContentFile,
  texts: ContentTexts,
  rules: Pick<CheckJob, "schema" | "recordsKey" | "identity">,
): Promise<FileJob> {
  try {
    const { hash, text } = await texts.read(file);
    return { file: file.display, path: file.path, hash, text, ...rules };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === undefined) throw error;
    const unreadable =
      code === "ENOENT" && file.path.includes("\uFFFD")
        ? "its name is not UTF-8 text, so the build cannot open it; rename it with letters, digits and hyphens"
        : `it cannot be read (${code}); check that it is a file you can read, or remove it`;
    return { file: file.display, path: file.path, hash: "", text: undefined, unreadable, ...rules };
  }
}

/** A job for every file of the given brands, in their order; every text read without `texts`. */
export async function brandJobs(
  units: readonly BrandUnit[],
  texts?: ContentTexts,
): Promise<FileJob[]> {
  const reading = texts ?? (await ContentTexts.open(undefined));
  return Promise.all(
    units.flatMap((unit) =>
      unit.files.map((file) =>
        fileJob(file, reading, {
          schema: unit.dataset.brandSchema,
          recordsKey: unit.dataset.recordsKey,
          identity: unit.dataset.identity,
        }),
      ),
    ),
  );
}

/** A job for the site file, when there is one, and for every brand file, in DATASETS order. */
export async function contentJobs(tree: ContentTree, texts?: ContentTexts): Promise<FileJob[]> {
  const reading = texts ?? (await ContentTexts.open(undefined));
  const units = DATASETS.flatMap((dataset) => tree.units.get(dataset.id) ?? []);
  const [siteJobs, brands] = await Promise.all([
    tree.siteFile
      ? fileJob(tree.siteFile, reading, {
          schema: SITE_SCHEMA,
          recordsKey: null,
          identity: [],
        }).then((job) => [job])
      : [],
    brandJobs(units, reading),
  ]);
  return [...siteJobs, ...brands];
}
