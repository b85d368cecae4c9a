import { describe, expect, it, vi } from "vitest";
import { runOnThreads, ThreadPool } from "../../../build/core/thread-pool.js";

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

  it("keeps its threads from one run to the next until it is closed", async () => {
    const pool = new ThreadPool<number, number>({ script: script("whoami"), threads: 2 });
    try {
      const first = await pool.run([1, 2, 3, 4, 5, 6]);
      const second = await pool.run([1, 2, 3, 4, 5, 6]);
      expect(new Set([...first, ...second]).size).toBeLessThanOrEqual(2);
      pool.close();
      // Closed, a run starts new threads: none of the ids before.
      const third = await pool.run([1, 2, 3]);
      expect(third.some((id) => first.includes(id) || second.includes(id))).toBe(false);
    } finally {
      pool.close();
    }
  });

  it("fails every later run once a thread has failed, rather than wait on a thread that is gone", async () => {
    const pool = new ThreadPool<number, number>({ script: script("throws"), threads: 1 });
    try {
      await expect(pool.run([1, 0])).rejects.toThrow("cannot take zero");
      await expect(pool.run([1])).rejects.toThrow("cannot take zero");
    } finally {
      pool.close();
    }
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
