import { describe, expect, it } from 'vitest';
import type { Ticket } from '../../../src/contract/schemas.ts';
import { parseServiceTargets, ticketClocks } from '../../../src/contract/service-levels.ts';
import { clockBlock, clockLines } from '../../../src/slack/builders/service-clock-builder.ts';
import { ticketWith } from '../../support/ticket-fixture.ts';

const T0 = Date.parse('2026-11-30T09:00:00Z');
const MIN = 60_000;
const HOUR = 60 * MIN;
const targets = parseServiceTargets('it:urgent=15m/4h').targets;

// An urgent IT ticket filed at T0 (the shared fixture), with whatever the test sets over it.
const ticket = (fields: Partial<Ticket> = {}): Ticket =>
  ticketWith({
    id: 'IT-1',
    title: 'Laptop',
    priority: 'urgent',
    created_at: new Date(T0).toISOString(),
    ...fields,
  });

const linesAt = (nowMs: number, fields: Partial<Ticket> = {}) =>
  clockLines(ticketClocks(ticket(fields), { targets, warnAt: 0.8, nowMs }), nowMs);
const seconds = (ms: number) => Math.floor(ms / 1000);

describe('service clock lines', () => {
  it('says when a running clock is due: relative within the hour, else as a day and a time', () => {
    const nowMs = T0 + MIN;
    expect(linesAt(nowMs)).toEqual([
      `:clock3: First response due <!date^${seconds(T0 + 15 * MIN)}^{ago}|2026-11-30 09:15 UTC>`,
      `:clock3: Resolution due <!date^${seconds(T0 + 4 * HOUR)}^{date_short_pretty} at {time}|2026-11-30 13:00 UTC>`,
    ]);
  });

  it('turns a clock past 80% of its time to a warning', () => {
    expect(linesAt(T0 + 13 * MIN)[0]).toMatch(/^:warning: First response due <!date\^/);
  });

  it('says when a clock breached: how long ago within the hour, else the day and time', () => {
    expect(linesAt(T0 + 20 * MIN)[0]).toBe(
      `:red_circle: First response breached <!date^${seconds(T0 + 15 * MIN)}^{ago}|2026-11-30 09:15 UTC>`,
    );
    expect(linesAt(T0 + 3 * HOUR)[0]).toBe(
      `:red_circle: First response breached <!date^${seconds(T0 + 15 * MIN)}^{date_short_pretty} at {time}|2026-11-30 09:15 UTC>`,
    );
  });

  it('says a first response was met, and nothing of a resolved ticket’s resolution', () => {
    const responded = new Date(T0 + 5 * MIN).toISOString();
    expect(linesAt(T0 + 20 * MIN, { first_responded_at: responded })).toEqual([
      ':white_check_mark: First response met',
      expect.stringMatching(/^:clock3: Resolution due/),
    ]);
    expect(linesAt(T0 + 20 * MIN, { status: 'resolved' })).toEqual([
      ':white_check_mark: First response met',
    ]);
  });

  it('says once that the clocks are paused while the ticket waits on its requester', () => {
    expect(linesAt(T0 + 20 * MIN, { status: 'waiting_on_requester' })).toEqual([
      ':double_vertical_bar: Paused: waiting on requester',
    ]);
  });

  it('makes no block for a ticket without a target', () => {
    const inputs = { targets, warnAt: 0.8, nowMs: T0 };
    expect(clockBlock(ticket({ priority: 'low' }), inputs, 'clocks')).toBeUndefined();
    expect(clockBlock(ticket(), inputs, 'clocks')).toMatchObject({
      type: 'context',
      block_id: 'clocks',
    });
  });
});
