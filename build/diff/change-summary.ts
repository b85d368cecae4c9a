/**
 * The change summary of `npm run diff -- <base> [<head>]`: builds both revisions' content (head
 * defaults to the work tree), compares them record by record and renders Markdown.
 */
import { DATASETS } from "../core/datasets.js";
import { DEFAULT_MAX_SHRINK, findShrinks, type Shrink } from "../guard/policy.js";
import { diffDataset, diffSettings } from "./compare.js";
import { renderSummary, type SummaryLimits } from "./markdown.js";
import {
  buildRevision,
  buildWorkTree,
  type BuiltRevision,
  type RevisionCache,
} from "../revision.js";

interface SummaryRequest {
  /** The work tree's content folder (its place in the repository says what to take). */
  readonly contentDir: string;
  readonly base: string;
  /** Undefined: the work tree as it is. */
  readonly head?: string;
  /** Folder printed paths are relative to. */
  readonly cwd: string;
  /** The build cache both sides' builds use: a folder, false for none, or the project's. */
  readonly cacheDir?: RevisionCache;
  readonly maxShrink?: number;
  readonly limits?: SummaryLimits;
}

interface ChangeSummary {
  readonly markdown: string;
  /** Data sets the publication guard would refuse when the head is deployed over the base. */
  readonly shrinks: readonly Shrink[];
  readonly base: BuiltRevision;
  readonly head: BuiltRevision;
}

/** Builds both sides, compares them and renders the Markdown; also says what the guard would refuse. */
export async function changeSummary(request: SummaryRequest): Promise<ChangeSummary> {
  const { contentDir, cwd, cacheDir } = request;
  const base = await buildRevision(contentDir, request.base, cwd, cacheDir);
  const head =
    request.head === undefined
      ? await buildWorkTree(contentDir, cwd, cacheDir)
      : await buildRevision(contentDir, request.head, cwd, cacheDir);
  const maxShrink = request.maxShrink ?? DEFAULT_MAX_SHRINK;
  const shrinks =
    base.counts && head.counts ? findShrinks(base.counts, head.counts, maxShrink) : [];
  const firstBody = (side: BuiltRevision) => side.bodies.values().next().value;
  const markdown = renderSummary(
    {
      base,
      head,
      datasets: DATASETS.map((dataset) =>
        diffDataset(dataset, base.bodies.get(dataset.id), head.bodies.get(dataset.id)),
      ),
      settings: diffSettings(firstBody(base), firstBody(head)),
      shrinks,
      maxShrink,
    },
    request.limits,
  );
  return { markdown, shrinks, base, head };
}
