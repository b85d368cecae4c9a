import { describe, expect, it, vi } from "vitest";
import { runOnThreads } from "../../../build/core/thread-pool.js";

const script = (name: string) => new URL(`../../fixtures/threads/${name}.mjs`, import.meta.url);

describe("the worker thread pool", () => {
  it("answers every task in the order of the tasks, across threads", async () => {
    const tasks = Array.from({ length: 25 }, (_, i) => i + 1);
    const replies = await runOnThreads<number, number>(tasks, {
      script: script("double"),
      threads: 2,
    });
    expect(replies).toEqual(tasks.map((n) => n * 2));
  });

  it("answers no tasks without starting a thread", async () => {
    await expect(runOnThreads([], { script: script("silent"), threads: 2 })).resolves.toEqual([]);
  });

  describe("settles with an error on every way a thread can end early", () => {
    it("rejects when a thread exits with code 0 before answering", async () => {
      const run = runOnThreads<number, number>([1, 2, 0, 3, 4], {
        script: script("exits"),
        threads: 2,
      });
      await expect(run).rejects.toThrow(/exited \(code 0\)/);
    });

    it("rejects when a thread exits with a non-zero code and never replies", async () => {
      const run = runOnThreads<number, number>([1, 2], { script: script("silent"), threads: 1 });
      await expect(run).rejects.toThrow(/exited \(code 3\) with 2 of 2 tasks unanswered/);
    });

    it("rejects with the thread's own error when a thread throws", async () => {
      const run = runOnThreads<number, number>([1, 0, 2], { script: script("throws"), threads: 2 });
      await expect(run).rejects.toThrow("cannot take zero");
    });

    it("rejects when a thread is terminated from outside mid-run", async () => {
      const { Worker } = await import("node:worker_threads");
      // Terminates the first thread the moment its first task is posted, instead of posting it:
      // a killed thread. Every later post goes through.
      const post = vi.spyOn(Worker.prototype, "postMessage").mockImplementationOnce(function (
        this: InstanceType<typeof Worker>,
      ) {
        void this.terminate();
      });
      try {
        const run = runOnThreads<number, number>([1, 2, 3], {
          script: script("double"),
          threads: 1,
        });
        await expect(run).rejects.toThrow(/exited \(code \d+\) with 3 of 3 tasks unanswered/);
      } finally {
        post.mockRestore();
      }
    });
  });
});
