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
export async function runOnThreads<Task, Reply>(
  tasks: readonly Task[],
  options: ThreadPoolOptions,
): Promise<Reply[]> {
  const pool = new ThreadPool<Task, Reply>(options);
  try {
    return await pool.run(tasks);
  } finally {
    pool.close();
  }
}

/** One run's tasks, and where its replies go. */
interface Run<Task, Reply> {
  readonly tasks: readonly Task[];
  readonly replies: Reply[];
  next: number;
  answered: number;
  readonly resolve: (replies: Reply[]) => void;
  readonly reject: (error: Error) => void;
}

/**
 * Threads started when first wanted and kept for many runs, one run at a time, until close():
 * for work that comes in batches (the history reads past files a few megabytes at a time), so
 * each batch does not pay for starting threads again. A thread that fails or exits fails the run
 * it was in, and the pool: later runs fail at once rather than wait on a thread that is gone.
 */
export class ThreadPool<Task, Reply> {
  #threads: Worker[] | undefined;
  #run: Run<Task, Reply> | undefined;
  #failed: Error | undefined;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: ThreadPoolOptions) {}

  /** Runs `tasks` in their order across the threads; replies come back in the order of `tasks`. */
  run(tasks: readonly Task[]): Promise<Reply[]> {
    const done = this.#queue.then(() => this.#start(tasks));
    this.#queue = done.catch(() => undefined);
    return done;
  }

  /** Ends the threads; a run after this starts them again. */
  close(): void {
    for (const thread of this.#threads ?? []) void thread.terminate();
    this.#threads = undefined;
  }

  #start(tasks: readonly Task[]): Promise<Reply[]> {
    if (this.#failed) return Promise.reject(this.#failed);
    if (tasks.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      this.#run = {
        tasks,
        replies: new Array<Reply>(tasks.length),
        next: 0,
        answered: 0,
        resolve,
        reject,
      };
      for (const thread of this.#pool()) this.#feed(thread);
    });
  }

  #pool(): Worker[] {
    this.#threads ??= Array.from({ length: this.options.threads }, () => this.#thread());
    return this.#threads;
  }

  #thread(): Worker {
    const thread = new Worker(this.options.script, { resourceLimits: this.options.resourceLimits });
    thread.on("message", ({ index, reply }: ReplyMessage<Reply>) => {
      const run = this.#run;
      if (!run) return;
      run.replies[index] = reply;
      if (++run.answered === run.tasks.length) {
        this.#run = undefined;
        run.resolve(run.replies);
      } else this.#feed(thread);
    });
    thread.on("error", (error) => this.#fail(error));
    thread.on("messageerror", (error) => this.#fail(error));
    thread.on("exit", (code) => {
      // Threads end when the pool is closed, with nothing asked of them.
      if (!this.#threads?.includes(thread)) return;
      const run = this.#run;
      const left = run ? `${run.tasks.length - run.answered} of ${run.tasks.length}` : "no";
      this.#fail(new Error(`a worker thread exited (code ${code}) with ${left} tasks unanswered`));
    });
    return thread;
  }

  #feed(thread: Worker): void {
    const run = this.#run;
    if (!run || run.next >= run.tasks.length) return;
    const index = run.next++;
    const message: TaskMessage<Task> = { index, task: run.tasks[index]! };
    thread.postMessage(message);
  }

  #fail(error: Error): void {
    this.#failed ??= error;
    const run = this.#run;
    this.#run = undefined;
    this.close();
    run?.reject(error);
  }
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
