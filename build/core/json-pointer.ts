/** JSON pointers (RFC 6901): where a value sits inside a file's document, as problems name it. */

/** Appends a JSON pointer segment, escaping `~` and `/` (RFC 6901 section 3). */
export function pointerJoin(pointer: string, segment: string | number): string {
  const text = String(segment);
  // Most segments need no escaping; checking first keeps the build's hot paths cheap.
  if (!text.includes("~") && !text.includes("/")) return `${pointer}/${text}`;
  return `${pointer}/${text.replace(/~/g, "~0").replace(/\//g, "~1")}`;
}

/** Splits a JSON pointer into unescaped segments. */
export function pointerSegments(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}
