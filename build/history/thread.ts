/**
 * A history thread (see store.ts): reads the past files it is sent, one at a time, into what the
 * history keeps of them (facts.ts), so a cold build's past versions are parsed on every core.
 */
import { serveTasks } from "../core/thread-pool.js";
import { readFileTask, type FileReply, type FileTask } from "./facts.js";

serveTasks<FileTask, FileReply>(readFileTask);
