/**
 * What the steps of a build share: where the content is and whom paths are shown to, the schemas
 * and their validators, the cache, the threads, the steps' clocks, the build's profile and memory. The pipeline makes one and
 * passes it to the steps, each of which names the part it reads (`Pick<BuildContext, …>`), so no
 * step declares these options again; the importer passes its own to steps 1 to 3.
 */
import type { AnySchemaObject, Ajv } from "ajv";
import type { BuildCache } from "./cache.js";
import type { ContentGit } from "./git.js";
import type { StepTimings } from "./timings.js";
import type { BuildProfile } from "./profile.js";
import type { BuildMemory } from "./memory.js";

export interface BuildContext {
  readonly contentDir: string;
  /** Folder that printed paths are relative to. */
  readonly cwd: string;
  /** The environment (SOURCE_DATE_EPOCH and git's settings for LastUpdated). */
  readonly env: NodeJS.ProcessEnv | undefined;
  /** Every schema by file name, and the validator compiled from them (check/schemas.ts). */
  readonly schemas: ReadonlyMap<string, AnySchemaObject>;
  readonly ajv: Ajv;
  /** The build cache, or undefined for none. */
  readonly cache: BuildCache | undefined;
  /** Worker threads for parsing and validation at most; default: the cores available. */
  readonly threads?: number | undefined;
  /** Receives each step's time, when given. */
  readonly timings?: StepTimings | undefined;
  /**
   * What git says of the content folder (core/git.ts), read once per build for the steps that
   * ask (LastUpdated, the history); each reads it itself when not given.
   */
  readonly git?: Promise<ContentGit> | undefined;
  /** What kind of build (core/profile.ts); the importer's checks have none. */
  readonly profile?: BuildProfile | undefined;
  /**
   * This build's memory (core/memory.ts): the profile's, kept between builds, or the build's own.
   * The importer's checks have none.
   */
  readonly memory?: BuildMemory | undefined;
}
