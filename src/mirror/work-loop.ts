/**
 * The loop each of the mirror's background parts runs (the worker, the change feed, the triage
 * feed): a step, then a sleep as long as the step says, until stopped. A wake cuts the sleep
 * short, so work brought forward (a write from Slack, a new ticket) never waits out an idle
 * time, and `stop()` returns once the step under way has finished.
 */
import type { Now, Sleep } from '../clock.ts';

/** One turn of the loop: does its work and says how long to sleep before the next (ms). */
export type LoopStep = () => Promise<number>;

/** Runs a step again and again until stopped; see the file comment. */
export class WorkLoop {
  readonly #step: LoopStep;
  readonly #sleep: Sleep;
  readonly #now: Now;
  #running = false;
  #loop: Promise<void> | undefined;
  #idle: AbortController | undefined;
  #idleUntil = Number.POSITIVE_INFINITY;

  constructor(step: LoopStep, clock: { sleep: Sleep; now: Now }) {
    this.#step = step;
    this.#sleep = clock.sleep;
    this.#now = clock.now;
  }

  /** Whether the loop runs (a step may check it to end early). */
  get running(): boolean {
    return this.#running;
  }

  /** Starts the loop; nothing when it runs already. */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#loop = this.#run();
  }

  /** Stops after the step under way. */
  async stop(): Promise<void> {
    this.#running = false;
    this.#idle?.abort();
    await this.#loop;
    this.#loop = undefined;
  }

  /** Ends the sleep now when it would last past `atMs` (by default, whatever its end). */
  wake(atMs = Number.NEGATIVE_INFINITY): void {
    if (atMs < this.#idleUntil) this.#idle?.abort();
  }

  async #run(): Promise<void> {
    while (this.#running) {
      const waitMs = await this.#step();
      if (!this.#running || waitMs <= 0) continue;
      const idle = new AbortController();
      this.#idle = idle;
      this.#idleUntil = this.#now() + waitMs;
      try {
        await this.#sleep(waitMs, idle.signal);
      } catch {
        // Woken early, or stopped.
      } finally {
        this.#idle = undefined;
        this.#idleUntil = Number.POSITIVE_INFINITY;
      }
    }
  }
}
