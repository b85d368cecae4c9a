/**
 * A check thread (see pool.ts): parses and validates the files it is sent, one at a time, compiling
 * each schema once. Replies carry the data as JSON text, which crosses threads faster than a
 * structured clone of the object tree.
 */
import type { CheckJob } from "../read/check-jobs.js";
import { serveTasks } from "../core/thread-pool.js";
import { runCheckJob, type CheckReply } from "./pool.js";
import { createAjv } from "./schemas.js";

const ajv = createAjv();

serveTasks<CheckJob, CheckReply>((job) => {
  const timing = { parseMs: 0, validateMs: 0 };
  return { result: runCheckJob(job, ajv, timing), timing };
});
