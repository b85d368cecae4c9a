/**
 * A DatasetBody as step 5 makes it (build/encode/dataset-body.ts), from an envelope written in a
 * test: its bytes and slices by the build's serialiser, the rest of its facts left plain.
 */
import type { DatasetDefinition } from "../../build/core/datasets.js";
import type { Envelope } from "../../build/assemble/envelope.js";
import { serializeBody } from "../../build/encode/body.js";
import { DatasetBody } from "../../build/encode/dataset-body.js";

export function madeBody(dataset: DatasetDefinition, value: Envelope): DatasetBody {
  const { bytes, slices } = serializeBody(value, dataset.recordsKey);
  return DatasetBody.made(
    {
      dataset,
      bytes,
      tag: '"-"',
      updated: { seconds: 0, source: "mtime" },
      summary: { totalResults: Number(value.meta.TotalResults), brands: value.data.length },
      located: [],
      brandNames: [],
    },
    value,
    slices,
  );
}
