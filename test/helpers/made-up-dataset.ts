/**
 * A made-up data set for the tests that add one to DATASETS (test/build/core/datasets.test.ts,
 * test/worker/made-up-dataset.test.ts): widgets, published by the Open Data API under the ATMs'
 * schemas, with a record noun of its own.
 */
import {
  OPEN_DATA_API,
  type DatasetDefinition,
  type DatasetId,
} from "../../build/core/datasets.js";

export const WIDGETS: DatasetDefinition = {
  id: "widgets" as DatasetId,
  title: "Widgets",
  contentDir: "widgets",
  api: OPEN_DATA_API,
  path: "/std/v2.2/widgets",
  mediaType: OPEN_DATA_API.mediaType,
  brandSchema: "atm-brand.schema.json",
  envelopeSchema: "atms.schema.json",
  recordsKey: "ATM",
  identity: ["Identification"],
  recordNoun: "Widget",
  marketingStateKey: null,
};
