/** Type guards for values parsed from YAML or JSON, shared by every step that reads them. */

/** A JSON object: its fields by name, each value still to be looked at. */
export type JsonObject = Record<string, unknown>;

/** A plain object (not null, not an array), so its fields can be read by name. */
export function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The field `key` of a value, when the value is an object. */
export function fieldOf(value: unknown, key: string): unknown {
  return isObject(value) ? value[key] : undefined;
}

/** The field `key` of a value when it is an object itself. */
export function objectAt(value: unknown, key: string): JsonObject | undefined {
  const child = fieldOf(value, key);
  return isObject(child) ? child : undefined;
}

/** The field `key` of a value as a list; empty when it is not one. */
export function listAt(value: unknown, key: string): unknown[] {
  const child = fieldOf(value, key);
  return Array.isArray(child) ? child : [];
}

/** The value when it is a string. */
export function textOf(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}
