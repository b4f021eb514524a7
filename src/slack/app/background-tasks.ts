/**
 * Work that runs after Slack has been acked (opening a modal, answering a lookup). Bolt can no
 * longer see its errors, so each task's failure goes to the same reporter as `app.error`, and
 * the set of running tasks is kept so shutdown can wait for them.
 */

/** Receives a background task's unexpected error, with what the task was doing. */
export type ErrorReporter = (error: unknown, context: Record<string, unknown>) => void;

/** Runs and tracks fire-and-forget tasks. */
export class BackgroundTasks {
  readonly #running = new Set<Promise<void>>();
  readonly #report: ErrorReporter;

  constructor(report: ErrorReporter) {
    this.#report = report;
  }

  /** Starts a task; its error is reported, never swallowed and never an unhandled rejection. */
  run(label: string, task: () => Promise<unknown>, context: Record<string, unknown> = {}): void {
    // Started on the next turn of the event loop, so the ack Slack waits for is written first.
    const done: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(task)
      .then(
        () => undefined,
        (error: unknown) => this.#report(error, { task: label, ...context }),
      )
      .finally(() => this.#running.delete(done));
    this.#running.add(done);
  }

  /** How many tasks are running. */
  get size(): number {
    return this.#running.size;
  }

  /** Resolves when every running task has settled, or after `timeoutMs`. */
  async drain(timeoutMs = 10_000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
      timer.unref();
    });
    await Promise.race([Promise.allSettled([...this.#running]), timeout]);
    clearTimeout(timer);
  }
}
