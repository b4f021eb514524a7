import { afterEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../tools/emulator/index.ts';
import { call, emulator } from './support.ts';

// A dropped connection makes fetch reject; report it as status 0.
async function statusOrDrop(run: () => Promise<{ status: number }>): Promise<number> {
  try {
    return (await run()).status;
  } catch {
    return 0;
  }
}

describe('emulator faults', () => {
  let emu: RunningEmulator;
  afterEach(async () => {
    await emu.close();
  });

  it('fails every request with 500, 503 or a dropped connection at fault rate 1', async () => {
    emu = await emulator({ faultRate: 1 });
    const statuses: number[] = [];
    for (let i = 0; i < 30; i += 1) {
      statuses.push(
        await statusOrDrop(() => call(emu, 'createTicket', { body: { title: `t${i}` } })),
      );
    }
    expect(new Set(statuses)).toEqual(new Set([500, 503, 0]));
  });

  it('never applies a write that it answered with a fault', async () => {
    emu = await emulator({ faultRate: 1 });
    for (let i = 0; i < 10; i += 1) {
      await statusOrDrop(() => call(emu, 'createTicket', { body: { title: `t${i}` } }));
    }
    expect(emu.model.ticketCount('acme')).toBe(18);
  });

  it('applies exactly the writes it answered with success at a partial fault rate', async () => {
    emu = await emulator({ faultRate: 0.5, randomSeed: 7 });
    let created = 0;
    for (let i = 0; i < 40; i += 1) {
      if (
        (await statusOrDrop(() => call(emu, 'createTicket', { body: { title: `t${i}` } }))) === 201
      )
        created += 1;
    }
    expect(created).toBeGreaterThan(0);
    expect(created).toBeLessThan(40);
    expect(emu.model.ticketCount('acme')).toBe(18 + created);
  });

  it('answers every request 503 while down and recovers when back up', async () => {
    emu = await emulator();
    emu.setFaults({ down: true });
    const down = await call(emu, 'listDesks');
    emu.setFaults({ down: false });
    const up = await call(emu, 'listDesks');
    expect([down.status, up.status]).toEqual([503, 200]);
  });

  it('waits the configured latency before answering', async () => {
    emu = await emulator();
    emu.setFaults({ latencyMs: 80 });
    const started = performance.now();
    await call(emu, 'listDesks');
    expect(performance.now() - started).toBeGreaterThanOrEqual(75);
  });

  it('refuses a fault rate outside 0 to 1', async () => {
    emu = await emulator();
    expect(() => emu.setFaults({ faultRate: 2 })).toThrow(/faultRate/);
  });

  it('applies a write and then loses its answer when told to, and answers the next one', async () => {
    emu = await emulator();
    const before = emu.model.ticketCount('acme');
    emu.setFaults({ loseWriteResponses: 1 });
    const lost = await statusOrDrop(() =>
      call(emu, 'createTicket', { body: { title: 'lost answer' } }),
    );
    const next = await statusOrDrop(() =>
      call(emu, 'createTicket', { body: { title: 'answered' } }),
    );
    expect([lost, next]).toEqual([0, 201]);
    expect(emu.model.ticketCount('acme')).toBe(before + 2);
  });
});
