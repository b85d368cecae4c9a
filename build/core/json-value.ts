/** Type guards for values parsed from YAML or JSON, shared by every step that reads them. */

/** A plain object (not null, not an array), so its fields can be read by name. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
