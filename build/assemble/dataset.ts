/**
 * Step 5 for one data set, as the pipeline runs it: when its content last changed, its brands
 * joined and wrapped in the envelope, and that envelope checked against the spec's envelope schema
 * (meta, data) before anything is encoded.
 */
import { join } from "node:path";
import { envelope, joinBrand, type Envelope } from "./envelope.js";
import type { SiteSettings } from "../read/site.js";
import type { CheckedUnit } from "../check/across-files.js";
import { SITE_FILE } from "../read/content.js";
import type { BuildContext } from "../core/context.js";
import type { DatasetDefinition } from "../core/datasets.js";
import { atFileStart, type Diagnostic } from "../core/diagnostics.js";
import { lastUpdated, type LastUpdated } from "./last-updated.js";
import { toRfc3339 } from "../core/dates.js";
import { describeSchemaError } from "../check/schema-messages.js";
import { displayPath } from "../core/paths.js";
import { envelopeShellValidator } from "../check/schemas.js";

export interface AssembleInput extends Pick<
  BuildContext,
  "ajv" | "schemas" | "contentDir" | "cwd" | "env" | "git" | "memory"
> {
  readonly dataset: DatasetDefinition;
  /** The data set's brands with their checked (valid) files. */
  readonly units: readonly CheckedUnit[];
  readonly settings: SiteSettings;
  /**
   * The brands of the site being built (BrandName values; `units` holds only them), which its
   * LastUpdated is dated by in git (history/dating.ts); undefined: every brand.
   */
  readonly brands?: ReadonlySet<string> | undefined;
}

export type Assembled =
  | { readonly ok: true; readonly body: Envelope; readonly brands: number }
  | { readonly ok: false; readonly problems: Diagnostic[] };

/** When the data set's content last changed: its meta.LastUpdated. */
export async function datasetUpdated(input: AssembleInput): Promise<LastUpdated> {
  const { dataset, units, contentDir } = input;
  return lastUpdated(
    [join(contentDir, dataset.contentDir), join(contentDir, SITE_FILE)],
    units.flatMap(({ unit }) => unit.files.map((f) => f.path)),
    input.env,
    await input.git,
  );
}

export function assembleDataset(input: AssembleInput, updated: LastUpdated): Assembled {
  const { dataset, units, contentDir } = input;
  const brands = units.map(({ files }) =>
    joinBrand(
      dataset,
      files.map((f) => f.value),
    ),
  );
  const body = envelope(dataset, brands, input.settings, toRfc3339(updated.seconds));
  const validate = envelopeShellValidator(input.ajv, input.schemas.get(dataset.envelopeSchema)!);
  if (validate(body)) return { ok: true, body, brands: brands.length };
  // Each file was valid, so a problem here is in what they make together (or in site.yaml's
  // meta fields); it has no line of its own, so it is reported at the data set's folder.
  const folder = displayPath(input.cwd, join(contentDir, dataset.contentDir));
  const problems = (validate.errors ?? []).map((error) => {
    const problem = describeSchemaError(error);
    const message = `the assembled ${dataset.path} response ${problem.message}`;
    return atFileStart(folder, problem.rule, message, problem.pointer);
  });
  return { ok: false, problems };
}
