/**
 * The specs' data sets (SPEC_PATHS) with their definitions in DATASETS, for tests that check
 * something of every data set: a loop over these cannot come out empty when DATASETS does, and a
 * data set of the specs missing from DATASETS fails where it is looked up.
 */
import { DATASETS, type DatasetDefinition } from "../../build/core/datasets.js";
import { SPEC_PATHS } from "./spec-values.js";

export const SPEC_DATASETS: readonly (readonly [id: string, definition: DatasetDefinition])[] =
  Object.keys(SPEC_PATHS).map((id) => {
    const definition = DATASETS.find((d) => d.id === id);
    if (!definition) throw new Error(`DATASETS has no "${id}", a data set of the specs`);
    return [id, definition] as const;
  });
