/**
 * A simulated clock for discrete-event runs: time jumps from one scheduled task to the next,
 * and between two tasks every promise chain is allowed to settle, so code written for real
 * time (awaits, sleeps, timers through the injected scheduler) runs unchanged and an hour
 * passes in seconds. Nothing in a simulated run may use real timers or real I/O.
 */
import type { Cancel, Scheduler } from '../../tools/emulator/index.ts';

interface Task {
  at: number;
  seq: number;
  run: () => void;
  cancelled: boolean;
}

/** Time, a scheduler and a sleep, all on one simulated timeline. */
export class SimulatedClock implements Scheduler {
  #now: number;
  #seq = 0;
  // A binary heap by (at, seq): equal times run in the order they were scheduled.
  readonly #heap: Task[] = [];

  constructor(startMs: number) {
    this.#now = startMs;
  }

  /** The simulated time in ms since the epoch. */
  readonly now = (): number => this.#now;

  /** Runs `task` after `delayMs` of simulated time. */
  schedule(delayMs: number, task: () => void): Cancel {
    const entry: Task = {
      at: this.#now + Math.max(0, delayMs),
      seq: this.#seq++,
      run: task,
      cancelled: false,
    };
    this.#push(entry);
    return () => {
      entry.cancelled = true;
    };
  }

  /** Resolves after `ms` of simulated time; rejects at once when the signal aborts. */
  readonly sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const cancel = this.schedule(ms, () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      });
      const onAbort = () => {
        cancel();
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    });

  /** Runs every task due up to `untilMs` in time order, letting promises settle after each. */
  async runUntil(untilMs: number): Promise<void> {
    await settle();
    for (;;) {
      const next = this.#heap[0];
      if (!next || next.at > untilMs) break;
      this.#pop();
      if (next.cancelled) continue;
      this.#now = Math.max(this.#now, next.at);
      next.run();
      await settle();
    }
    this.#now = Math.max(this.#now, untilMs);
    await settle();
  }

  #push(task: Task): void {
    const heap = this.#heap;
    heap.push(task);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i] as Task, heap[parent] as Task)) break;
      [heap[i], heap[parent]] = [heap[parent] as Task, heap[i] as Task];
      i = parent;
    }
  }

  #pop(): void {
    const heap = this.#heap;
    const last = heap.pop();
    if (!last || heap.length === 0) return;
    heap[0] = last;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < heap.length && before(heap[left] as Task, heap[smallest] as Task)) smallest = left;
      if (right < heap.length && before(heap[right] as Task, heap[smallest] as Task)) {
        smallest = right;
      }
      if (smallest === i) break;
      [heap[i], heap[smallest]] = [heap[smallest] as Task, heap[i] as Task];
      i = smallest;
    }
  }
}

function before(a: Task, b: Task): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}

// Every promise chain that does not wait on time finishes within a few macrotask turns: the
// whole run is in-process, so nothing waits on real I/O.
async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
