import { afterEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../tools/emulator/index.ts';
import { call, emulator, ManualClock } from './support.ts';

// 10:15:20 UTC: the minute window resets at 10:16:00, the hour window at 11:00:00.
const START = Date.UTC(2025, 0, 6, 10, 15, 20);
const NEXT_MINUTE_S = Date.UTC(2025, 0, 6, 10, 16) / 1000;
const NEXT_HOUR_S = Date.UTC(2025, 0, 6, 11) / 1000;

function headersOf(response: { headers: Headers }) {
  return {
    limit: response.headers.get('x-ratelimit-limit'),
    remaining: response.headers.get('x-ratelimit-remaining'),
    reset: response.headers.get('x-ratelimit-reset'),
  };
}

describe('emulator rate limits', () => {
  let emu: RunningEmulator;
  let clock: ManualClock;
  afterEach(async () => {
    await emu.close();
  });

  async function start(perMinute: number, perHour: number, variant: 'a' | 'b' = 'a') {
    clock = new ManualClock(START);
    emu = await emulator({
      now: clock.now,
      ratePerMinute: perMinute,
      ratePerHour: perHour,
      variant,
    });
  }

  it('reports the window closest to exhaustion on every authenticated response', async () => {
    await start(3, 1000);
    const response = await call(emu, 'listDesks');
    expect(headersOf(response)).toEqual({
      limit: '3',
      remaining: '2',
      reset: String(NEXT_MINUTE_S),
    });
  });

  it('carries the headers on error responses too', async () => {
    await start(3, 1000);
    const response = await call(emu, 'getTicket', { ticketId: 'IT-9999' });
    expect(response.status).toBe(404);
    expect(headersOf(response).remaining).toBe('2');
  });

  it('answers 429 with Retry-After once the minute budget is spent', async () => {
    await start(3, 1000);
    for (let i = 0; i < 3; i += 1) await call(emu, 'listDesks');
    const refused = await call(emu, 'listDesks');
    expect(refused.status).toBe(429);
    expect(headersOf(refused)).toEqual({
      limit: '3',
      remaining: '0',
      reset: String(NEXT_MINUTE_S),
    });
    expect(refused.headers.get('retry-after')).toBe('40');
  });

  it('does not count refused requests against the next window', async () => {
    await start(3, 1000);
    for (let i = 0; i < 6; i += 1) await call(emu, 'listDesks');
    clock.advance(40_000);
    const response = await call(emu, 'listDesks');
    expect(response.status).toBe(200);
    expect(headersOf(response).remaining).toBe('2');
  });

  it('keeps a separate budget per key', async () => {
    await start(1, 1000);
    await call(emu, 'listDesks', { key: 'sd_acme_rw' });
    const other = await call(emu, 'listDesks', { key: 'sd_acme_ro' });
    expect(other.status).toBe(200);
  });

  it('switches to the hour window when it is closer to exhaustion', async () => {
    await start(100, 4);
    for (let i = 0; i < 4; i += 1) await call(emu, 'listDesks');
    clock.advance(60_000);
    const refused = await call(emu, 'listDesks');
    expect(refused.status).toBe(429);
    expect(headersOf(refused)).toEqual({ limit: '4', remaining: '0', reset: String(NEXT_HOUR_S) });
  });

  it('applies the limits under variant B as well', async () => {
    await start(1, 1000, 'b');
    await call(emu, 'listDesks');
    const refused = await call(emu, 'listDesks');
    expect(refused.status).toBe(429);
  });
});
