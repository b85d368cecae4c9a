/**
 * A few worker threads (node:worker_threads; nothing to do with the Cloudflare Worker) running one
 * script, each handed the next task as soon as it is free. The promise settles on every way a
 * thread can end: with the results when every task is answered; with the error when a thread
 * throws, when a message cannot be read, or when a thread exits (with any code) before the work
 * is done. A pool that waited for a reply from a thread that is gone would never settle, and a
 * build would hang instead of failing.
 */
import { parentPort, Worker, type ResourceLimits } from "node:worker_threads";

/** What the pool posts to a thread: one task and where its answer goes. */
interface TaskMessage<Task> {
  readonly index: number;
  readonly task: Task;
}

/** What a thread posts back. */
interface ReplyMessage<Reply> {
  readonly index: number;
  readonly reply: Reply;
}

export interface ThreadPoolOptions {
  /** The thread's script; it answers tasks with serveTasks. */
  readonly script: URL;
  readonly threads: number;
  readonly resourceLimits?: ResourceLimits;
}

/** Runs `tasks` in their order across the threads; replies come back in the order of `tasks`. */
export function runOnThreads<Task, Reply>(
  tasks: readonly Task[],
  options: ThreadPoolOptions,
): Promise<Reply[]> {
  const replies = new Array<Reply>(tasks.length);
  if (tasks.length === 0) return Promise.resolve(replies);
  let next = 0;
  let answered = 0;
  let settled = false;
  return new Promise((resolve, reject) => {
    const threads = Array.from(
      { length: Math.min(options.threads, tasks.length) },
      () => new Worker(options.script, { resourceLimits: options.resourceLimits }),
    );
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      for (const thread of threads) void thread.terminate();
      if (error) reject(error);
      else resolve(replies);
    };
    const feed = (thread: Worker) => {
      if (next >= tasks.length) return;
      const index = next++;
      const message: TaskMessage<Task> = { index, task: tasks[index]! };
      thread.postMessage(message);
    };
    for (const thread of threads) {
      thread.on("message", ({ index, reply }: ReplyMessage<Reply>) => {
        replies[index] = reply;
        if (++answered === tasks.length) settle();
        else feed(thread);
      });
      thread.on("error", (error) => settle(error));
      thread.on("messageerror", (error) => settle(error));
      thread.on("exit", (code) => {
        const left = tasks.length - answered;
        settle(
          new Error(
            `a worker thread exited (code ${code}) with ${left} of ${tasks.length} tasks unanswered`,
          ),
        );
      });
      feed(thread);
    }
  });
}

/** In a thread's script: answers every task the pool sends with `handle`. */
export function serveTasks<Task, Reply>(handle: (task: Task) => Reply): void {
  if (!parentPort) throw new Error("serveTasks runs only in a worker thread");
  const port = parentPort;
  port.on("message", ({ index, task }: TaskMessage<Task>) => {
    const message: ReplyMessage<Reply> = { index, reply: handle(task) };
    port.postMessage(message);
  });
}
