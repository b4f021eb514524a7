import { describe, expect, it } from 'vitest';
import type { Ticket } from '../../src/contract/schemas.ts';
import {
  nextClockChangeMs,
  parseServiceTargets,
  type ServiceTargets,
  targetFor,
  ticketClocks,
} from '../../src/contract/service-levels.ts';
import { ticketWith } from '../support/ticket-fixture.ts';

const T0 = Date.parse('2026-11-30T09:00:00Z');
const MIN = 60_000;
const HOUR = 60 * MIN;

// An urgent IT ticket filed at T0 (the shared fixture), with whatever the test sets over it.
const ticket = (fields: Partial<Ticket> = {}): Ticket =>
  ticketWith({
    id: 'IT-1',
    title: 'Laptop',
    priority: 'urgent',
    created_at: new Date(T0).toISOString(),
    ...fields,
  });

const targets: ServiceTargets = parseServiceTargets('it:urgent=15m/4h,*:medium=4h/3d').targets;
const at = (nowMs: number, fields: Partial<Ticket> = {}, firstRespondedAtMs?: number) =>
  ticketClocks(ticket(fields), { targets, warnAt: 0.8, nowMs, firstRespondedAtMs });

describe('service-level clocks', () => {
  it('runs both clocks from SLA_TARGETS when the platform gives none', () => {
    const clocks = at(T0 + MIN);
    expect(clocks.map((c) => [c.kind, c.state, c.dueAtMs - T0, c.source])).toEqual([
      ['first_response', 'running', 15 * MIN, 'targets'],
      ['resolution', 'running', 4 * HOUR, 'targets'],
    ]);
  });

  it('warns at 80% of the time allowed and breaches at the due time', () => {
    expect(at(T0 + 12 * MIN - 1)[0]?.state).toBe('running');
    expect(at(T0 + 12 * MIN)[0]?.state).toBe('warning');
    expect(at(T0 + 15 * MIN)[0]?.state).toBe('breached');
  });

  it('counts the first response met once answered, and every clock met once resolved', () => {
    expect(at(T0 + 20 * MIN, {}, T0 + 5 * MIN)[0]?.state).toBe('met');
    expect(at(T0 + 5 * HOUR, { status: 'resolved' }).map((c) => c.state)).toEqual(['met', 'met']);
  });

  it('pauses while the ticket waits on its requester', () => {
    expect(at(T0 + HOUR, { status: 'waiting_on_requester' }).map((c) => c.state)).toEqual([
      'paused',
      'paused',
    ]);
  });

  it('uses the platform clocks when the ticket carries them, even against SLA_TARGETS', () => {
    const clocks = at(T0 + MIN, {
      first_response_due_at: new Date(T0 + 30 * MIN).toISOString(),
      resolution_due_at: null,
      first_responded_at: null,
      sla_paused: false,
    });
    expect(clocks.map((c) => [c.kind, c.dueAtMs - T0, c.source])).toEqual([
      ['first_response', 30 * MIN, 'platform'],
    ]);
  });

  it('follows the platform: responded and paused come from its fields', () => {
    const base = { first_response_due_at: new Date(T0 + 30 * MIN).toISOString() };
    expect(
      at(T0 + HOUR, { ...base, first_responded_at: new Date(T0).toISOString() })[0]?.state,
    ).toBe('met');
    expect(at(T0 + HOUR, { ...base, sla_paused: true })[0]?.state).toBe('paused');
    // The platform says it is not paused: a waiting status does not pause its clock here.
    expect(
      at(T0 + HOUR, { ...base, status: 'waiting_on_requester', sla_paused: false })[0]?.state,
    ).toBe('breached');
  });

  it('has no clock for a ticket no target covers', () => {
    expect(at(T0, { desk_id: 'hr', priority: 'low' })).toEqual([]);
  });

  it('names the next change: the warning point, then the due time, then none', () => {
    expect(nextClockChangeMs(at(T0), T0)).toBe(T0 + 12 * MIN);
    expect(nextClockChangeMs(at(T0 + 13 * MIN), T0 + 13 * MIN)).toBe(T0 + 15 * MIN);
    const late = T0 + 5 * HOUR;
    expect(nextClockChangeMs(at(late), late)).toBeUndefined();
  });
});

describe('SLA_TARGETS', () => {
  it('picks the most specific entry: desk and priority, desk, priority, then any', () => {
    const { targets: t } = parseServiceTargets('it:urgent=1m/1h,it:*=2m/2h,*:high=3m/3h,*:*=4m/4h');
    expect(targetFor(t, 'it', 'urgent')?.firstResponseMs).toBe(MIN);
    expect(targetFor(t, 'it', 'low')?.firstResponseMs).toBe(2 * MIN);
    expect(targetFor(t, 'hr', 'high')?.firstResponseMs).toBe(3 * MIN);
    expect(targetFor(t, null, 'low')?.firstResponseMs).toBe(4 * MIN);
  });

  it('reads - as no target for that clock', () => {
    const { targets: t, problems } = parseServiceTargets('it:low=-/5d');
    expect(problems).toEqual([]);
    expect(targetFor(t, 'it', 'low')).toEqual({
      firstResponseMs: undefined,
      resolutionMs: 5 * 24 * HOUR,
    });
  });

  it('quotes each entry it cannot read and keeps the others', () => {
    const { targets: t, problems } = parseServiceTargets(
      'it:urgent=15m,it:high=1x/8h,*:medium=4h/3d',
    );
    expect(problems).toEqual([
      'has "it:urgent=15m": write desk:priority=first response/resolution, e.g. it:urgent=15m/4h,it:high=1h/8h,*:medium=4h/3d',
      'has "it:high=1x/8h": "1x" is not a time such as 15m, 4h, 3d or - (none)',
    ]);
    expect([...t.keys()]).toEqual(['*:medium']);
  });
});
