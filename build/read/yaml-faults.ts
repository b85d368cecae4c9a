import type { YAMLError } from "yaml";
import type { Diagnostic } from "../core/diagnostics.js";
import type { Position } from "./yaml-nodes.js";

/** The problems of a file the yaml package could not read. */
export function syntaxProblems(
  file: string,
  _text: string,
  problems: readonly YAMLError[],
  at: (offset: number) => Position,
): Diagnostic[] {
  return problems.map((problem) => ({
    file,
    ...at(problem.pos[0]),
    pointer: "",
    message: yamlMessage(problem.code, problem.message),
    rule: "yaml",
  }));
}

/** Rewords the yaml package's messages where an editor would not know what they mean. */
function yamlMessage(code: string, message: string): string {
  const first = message.split("\n")[0] ?? message;
  switch (code) {
    case "DUPLICATE_KEY":
      return "this field appears twice in the same place; keep one";
    case "TAG_RESOLVE_FAILED":
      return `${first}; tags (!...) are not allowed in content files`;
    case "MULTIPLE_DOCS":
      return "a file holds one document; remove the extra `---` section";
    default:
      return `YAML syntax: ${first}`;
  }
}
