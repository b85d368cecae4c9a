/**
 * The publication guard's settings as the command line and the environment give them (the build
 * and diff CLIs share them), checked, with a wrong value answered by what is expected.
 */
import { ALLOW_SHRINK_ENV, MAX_SHRINK_FLAG } from "./flags.js";
import { percent } from "../core/format.js";
import { DEFAULT_MAX_SHRINK, GuardUsageError } from "./policy.js";

/**
 * Parses `--max-shrink`: a share such as 0.2, or a percentage such as 20%; the default share
 * when the flag is not given.
 */
export function parseMaxShrink(text: string | undefined): number {
  if (text === undefined) return DEFAULT_MAX_SHRINK;
  const trimmed = text.trim();
  const match = /^(\d+(?:\.\d+)?|\.\d+)(%?)$/.exec(trimmed);
  const value = match ? Number(match[1]) / (match[2] ? 100 : 1) : Number.NaN;
  if (!(value >= 0 && value <= 1)) {
    throw new GuardUsageError(
      `--${MAX_SHRINK_FLAG} must be a share from 0 to 1 (such as ${DEFAULT_MAX_SHRINK}) or a percentage (such as ${percent(DEFAULT_MAX_SHRINK)}), not "${text}"`,
    );
  }
  return value;
}

/** Reads OPENDATA_ALLOW_SHRINK: 1/true/yes is on; unset, empty, 0/false/no is off. */
export function allowShrinkFromEnv(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = (env[ALLOW_SHRINK_ENV] ?? "").trim().toLowerCase();
  if (["1", "true", "yes"].includes(value)) return true;
  if (["", "0", "false", "no"].includes(value)) return false;
  throw new GuardUsageError(
    `${ALLOW_SHRINK_ENV} must be 1 (publish despite a shrink) or 0, not "${env[ALLOW_SHRINK_ENV]}"`,
  );
}
