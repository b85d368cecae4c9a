/**
 * The yaml package, loaded the first time a file needs it: loading it takes about 30 ms of CPU,
 * which a build whose files js-yaml reads (yaml-fast.ts) never needs to spend, and a rebuild after
 * one edit is a few hundred milliseconds in all. Types are imported as usual; they cost nothing.
 */
import { createRequire } from "node:module";

type Yaml = typeof import("yaml");

// A package loaded once per process, like any import: no build's state.
let loaded: Yaml | undefined;

export function yamlPackage(): Yaml {
  loaded ??= createRequire(import.meta.url)("yaml") as Yaml;
  return loaded;
}
