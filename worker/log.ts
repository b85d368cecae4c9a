/**
 * What the Worker logs, named once: every line is one JSON object with the same four fields, so
 * `wrangler tail` and Workers Logs can filter on them. No line ever carries a client's address:
 * the fields are an event name, a data set id, an HTTP status and a cause (an error's message).
 */

/** The events the Worker logs; docs/operations.md#logs says what each one means. */
export const LOG_EVENTS = {
  /** A rate-limit counter could not be shared through KV; the isolate counts alone for now. */
  counterNotShared: "rate-limit-counter-not-shared",
  /** RATE_LIMIT_KEY is not set: counter keys use a random key of this isolate (once per isolate). */
  rateLimitKeyMissing: "rate-limit-key-missing",
  /** The KV maintenance flag could not be read; the last known value stays. */
  maintenanceFlagNotRead: "maintenance-flag-not-read",
  /** The static-assets binding threw; answered 503. */
  assetsUnavailable: "assets-unavailable",
  /** A stored file disagrees with the manifest (missing, other length); answered 500. */
  assetMismatch: "asset-mismatch",
  /** An exception nothing else caught; answered 500. */
  unexpectedError: "unexpected-error",
  /** A [vars] value in wrangler.toml is invalid; its default is used. */
  configInvalid: "config-invalid",
} as const;

type LogEvent = (typeof LOG_EVENTS)[keyof typeof LOG_EVENTS];

/** One log line, before it is written. */
export interface LogEntry {
  readonly event: LogEvent;
  /** What the request was for: the data set's manifest id, or a document's path. */
  readonly dataset?: string;
  /** The HTTP status answered because of the event, when it changed the answer. */
  readonly status?: number;
  /** What went wrong, in words: an error's name and message, never its stack or a request. */
  readonly cause?: string;
}

/** The line written for `entry`: one JSON object with all four fields (null where not known). */
export function logLine(entry: LogEntry, error?: unknown): string {
  return JSON.stringify({
    event: entry.event,
    dataset: entry.dataset ?? null,
    status: entry.status ?? null,
    cause: [entry.cause, describeError(error)].filter(Boolean).join(": ") || null,
  });
}

// An error's name and message on one line. The stack is left out: it names our files, not the
// cause, and the one line a minute it would cost is better spent on the message.
function describeError(error: unknown): string | undefined {
  if (error === undefined) return undefined;
  const oneLine = (text: string) => text.replace(/\s+/g, " ");
  if (error instanceof Error) return oneLine(`${error.name}: ${error.message}`);
  if (typeof error === "string") return oneLine(error);
  // Anything else thrown: its JSON, so an object shows its fields instead of "[object Object]".
  try {
    return oneLine(JSON.stringify(error) ?? typeof error);
  } catch {
    return typeof error;
  }
}
