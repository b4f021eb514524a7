/** The signal handler's rules, with a stand-in for `process` and fake timers. */
import { EventEmitter } from 'node:events';
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { handleShutdownSignals, type SignalSource } from '../../src/ops/shutdown.ts';

const logger = pino({ level: 'silent' });

function fakeProcess(): SignalSource & { exits: number[]; emit(signal: string): void } {
  const emitter = new EventEmitter();
  const exits: number[] = [];
  return {
    exits,
    on: (signal, listener) => emitter.on(signal, listener),
    off: (signal, listener) => emitter.off(signal, listener),
    emit: (signal) => emitter.emit(signal, signal),
    exit: (code) => {
      exits.push(code);
    },
  };
}

describe('shutdown signals', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs the steps in order on SIGTERM and exits 0', async () => {
    const proc = fakeProcess();
    const ran: string[] = [];
    const { shutdown } = handleShutdownSignals({
      logger,
      process: proc,
      steps: ['readiness', 'slack', 'redis'].map((name) => ({
        name,
        run: async () => {
          ran.push(name);
        },
      })),
    });
    proc.emit('SIGTERM');
    await shutdown('test');
    expect(ran).toEqual(['readiness', 'slack', 'redis']);
    expect(proc.exits).toEqual([0]);
  });

  it('goes on after a failed step and exits 1', async () => {
    const proc = fakeProcess();
    const ran: string[] = [];
    const { shutdown } = handleShutdownSignals({
      logger,
      process: proc,
      steps: [
        {
          name: 'slack',
          run: async () => {
            throw new Error('receiver was not started');
          },
        },
        { name: 'redis', run: async () => ran.push('redis') },
      ],
    });
    await shutdown('SIGINT');
    expect(ran).toEqual(['redis']);
    expect(proc.exits).toEqual([1]);
  });

  it('exits 1 when the steps outrun the deadline', async () => {
    vi.useFakeTimers();
    const proc = fakeProcess();
    handleShutdownSignals({
      logger,
      process: proc,
      timeoutMs: 10_000,
      steps: [{ name: 'worker', run: () => new Promise(() => undefined) }],
    });
    proc.emit('SIGTERM');
    await vi.advanceTimersByTimeAsync(9_999);
    expect(proc.exits).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(proc.exits).toEqual([1]);
  });

  it('exits at once on a second signal, with the signal’s conventional code', () => {
    const proc = fakeProcess();
    handleShutdownSignals({
      logger,
      process: proc,
      steps: [{ name: 'worker', run: () => new Promise(() => undefined) }],
    });
    proc.emit('SIGINT');
    proc.emit('SIGINT');
    expect(proc.exits).toEqual([130]);
  });

  it('stops listening once disposed', () => {
    const proc = fakeProcess();
    const handler = handleShutdownSignals({
      logger,
      process: proc,
      steps: [{ name: 'never', run: () => new Promise(() => undefined) }],
    });
    handler.dispose();
    proc.emit('SIGTERM');
    proc.emit('SIGTERM');
    expect(proc.exits).toEqual([]);
  });
});
