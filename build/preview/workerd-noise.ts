/**
 * What workerd prints when a client drops a connection it was answering (a browser tab closed or
 * reloaded mid-answer, curl stopped): an ERROR line from its kj library, `disconnected` or
 * `Broken pipe` or `Connection reset by peer`, with a native stack. It is no fault of the Worker or
 * the content, but wrangler prints it as `✘ [ERROR]`, which reads to an editor like a crash. The
 * preview (scripts/dev.mjs) leaves it out of the terminal; every other error is printed as it is.
 */
import { format, stripVTControlCharacters } from "node:util";

// kj's own file and line, then one of the ways a peer's going away is reported.
const DISCONNECT =
  /\bkj\/[\w./-]+\.c\+\+:\d+:.*\b(?:disconnected|Broken pipe|Connection reset by peer|EPIPE|ECONNRESET)\b/s;

/** Whether `message` is only workerd reporting that a client went away. */
export function isDisconnectNoise(message: string): boolean {
  const text = stripVTControlCharacters(message);
  // A report that names the Worker's own code or an uncaught JavaScript error is kept.
  if (/\bjsg\.|\bUncaught\b(?! exception: kj\/)|\.ts:\d+/.test(text)) return false;
  return DISCONNECT.test(text);
}

/**
 * `write` (console.error, say) without workerd's disconnect reports: wrangler prints workerd's
 * errors through console.error, in the preview's own process.
 */
export function withoutDisconnectNoise(
  write: (...args: unknown[]) => void,
): (...args: unknown[]) => void {
  return (...args) => {
    if (isDisconnectNoise(format(...args))) return;
    write(...args);
  };
}
