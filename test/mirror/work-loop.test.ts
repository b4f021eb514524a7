import { describe, expect, it } from 'vitest';
import { sleep } from '../../src/clock.ts';
import { WorkLoop } from '../../src/mirror/work-loop.ts';

describe('the work loop', () => {
  it('runs its step again after the sleep the step asked for, and a wake cuts that sleep short', async () => {
    const turns: number[] = [];
    const loop = new WorkLoop(
      async () => {
        turns.push(Date.now());
        return 60_000;
      },
      { sleep, now: Date.now },
    );
    loop.start();
    await sleep(50);
    expect(turns).toHaveLength(1);
    loop.wake();
    await sleep(50);
    expect(turns).toHaveLength(2);
    await loop.stop();
  });

  it('does not wake for a time that comes after its sleep ends', async () => {
    let turns = 0;
    const loop = new WorkLoop(
      async () => {
        turns += 1;
        return 60_000;
      },
      { sleep, now: Date.now },
    );
    loop.start();
    await sleep(50);
    loop.wake(Date.now() + 3_600_000);
    await sleep(50);
    expect(turns).toBe(1);
    await loop.stop();
  });

  it('stops after the step under way has finished', async () => {
    let finished = false;
    const loop = new WorkLoop(
      async () => {
        await sleep(100);
        finished = true;
        return 60_000;
      },
      { sleep, now: Date.now },
    );
    loop.start();
    await sleep(10);
    await loop.stop();
    expect(finished).toBe(true);
    expect(loop.running).toBe(false);
  });
});
