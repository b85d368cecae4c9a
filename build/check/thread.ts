/**
 * A worker thread of the check pool (node:worker_threads; nothing to do with the Cloudflare Worker):
 * parses and validates the files it is sent, one at a time, compiling each schema once. Replies
 * carry the data as JSON text, which crosses threads faster than a structured clone of the object
 * tree.
 */
import { parentPort } from "node:worker_threads";
import { runCheckJob, type CheckReply, type CheckRequest } from "./pool.js";
import { createAjv } from "./schemas.js";

const ajv = createAjv();

parentPort!.on("message", (request: CheckRequest) => {
  const timing = { parseMs: 0, validateMs: 0 };
  const result = runCheckJob(request, ajv, timing);
  const reply: CheckReply = { id: request.id, result, timing };
  parentPort!.postMessage(reply);
});
