/**
 * Time as the emulator sees it. The model reads an injectable clock and the AI agent schedules
 * its delayed work through an injectable scheduler, so a benchmark on a simulated clock can run
 * both without waiting in real time.
 */

/** The current time in milliseconds since the Unix epoch. */
export type { Now } from '../../src/clock.ts';

/** Cancels a scheduled task; calling it after the task ran is harmless. */
export type Cancel = () => void;

/** Runs tasks after a delay. */
export interface Scheduler {
  schedule(delayMs: number, task: () => void): Cancel;
}

/** The default scheduler: real timers. */
export const realTimers: Scheduler = {
  schedule(delayMs, task) {
    const timer = setTimeout(task, delayMs);
    return () => clearTimeout(timer);
  },
};
