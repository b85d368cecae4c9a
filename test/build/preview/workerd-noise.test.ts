import { describe, expect, it } from "vitest";
import { isDisconnectNoise, withoutDisconnectNoise } from "../../../build/preview/workerd-noise.js";

// As wrangler prints them: esbuild's ✘ [ERROR] frame, in colour, around workerd's text.
const framed = (text: string) =>
  `\u001b[31m✘ \u001b[41;31m[\u001b[41;97mERROR\u001b[41;31m]\u001b[0m \u001b[1m${text}\u001b[0m\n`;
const BROKEN_PIPE = framed(
  "kj/async-io-unix.c++:186: disconnected: ::write(fd, buffer, size): Broken pipe; fd = 23\nstack: /x/workerd@2b1a3c0 /x/workerd@2b0e671 /x/workerd@2a9f8d2",
);
const RESET = framed(
  "workerd/server/server.c++:4601: error: Uncaught exception: kj/async-io-unix.c++:493: disconnected: ::read(fd, buffer, maxBytes): Connection reset by peer\nstack: /x/workerd@2b1a3c0",
);

describe("workerd's disconnect reports in the preview's terminal", () => {
  it("counts a kj Broken pipe or connection reset with its native stack as noise", () => {
    expect([isDisconnectNoise(BROKEN_PIPE), isDisconnectNoise(RESET)]).toEqual([true, true]);
  });

  it("keeps the Worker's own errors and workerd's other errors", () => {
    expect([
      isDisconnectNoise(framed("Uncaught TypeError: x is undefined\n    at worker/entry.ts:12:3")),
      isDisconnectNoise(framed("kj/filesystem-disk-unix.c++:1703: failed: open(): No such file")),
      isDisconnectNoise(
        framed("preview: the Worker at http://127.0.0.1:8831 did not serve version 1"),
      ),
    ]).toEqual([false, false, false]);
  });

  it("passes every other line to the writer it wraps, and drops only the noise", () => {
    const written: unknown[][] = [];
    const write = withoutDisconnectNoise((...args) => written.push(args));
    write(BROKEN_PIPE);
    write("Rebuilt in %d ms", 120);
    write(RESET);
    expect(written).toEqual([["Rebuilt in %d ms", 120]]);
  });
});
