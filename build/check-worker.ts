/**
 * A worker thread of the check pool: parses and validates the files it is sent, one at a time,
 * compiling each schema once. Replies carry the data as JSON text, which crosses threads faster
 * than a structured clone of the object tree.
 */
import { parentPort } from "node:worker_threads";
import { toTransferable, type CheckRequest } from "./check-pool.js";
import { checkFile } from "./check-file.js";
import { createAjv, validatorFor } from "./schemas.js";

const ajv = createAjv();

parentPort!.on("message", (request: CheckRequest) => {
  const { id, file, text, schema, recordsKey, identity } = request;
  const timing = { parseMs: 0, validateMs: 0 };
  const rules = { validate: validatorFor(ajv, schema), recordsKey, identity };
  const checked = checkFile(file, text, rules, timing);
  parentPort!.postMessage({ id, result: toTransferable(checked), timing });
});
