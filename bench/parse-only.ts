/**
 * The floor every build time is compared with: reading and parsing every YAML file of a content
 * folder on one thread with the build's parser (js-yaml and its node index, read/yaml-source.ts),
 * nothing else. Prints a JSON line. Argument: <content dir>
 */
import { readFile } from "node:fs/promises";
import fg from "fast-glob";
import { parseYaml } from "../build/read/yaml-source.js";

const dir = process.argv[2];
if (!dir) throw new Error("usage: parse-only <content dir>");
const files = (await fg("**/*.{yaml,yml}", { cwd: dir, absolute: true })).sort();
const start = performance.now();
let bytes = 0;
for (const file of files) {
  const text = await readFile(file, "utf8");
  bytes += Buffer.byteLength(text);
  parseYaml(file, text);
}
console.log(JSON.stringify({ wallMs: performance.now() - start, files: files.length, bytes }));
