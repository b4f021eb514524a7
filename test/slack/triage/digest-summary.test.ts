/** What a morning summary counts from a channel's open tickets. */
import { describe, expect, it } from 'vitest';
import { parseServiceTargets } from '../../../src/contract/service-levels.ts';
import { summarise } from '../../../src/slack/triage/digest-summary.ts';
import { ticketWith } from '../../support/ticket-fixture.ts';

const NOW = Date.parse('2026-11-30T09:00:00Z');
const END_OF_DAY = Date.parse('2026-12-01T00:00:00Z');
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const NONE = parseServiceTargets('').targets;
const base = { nowMs: NOW, endOfDayMs: END_OF_DAY, targets: NONE, warnAt: 0.8 };

describe('summarise', () => {
  it('counts open and unassigned tickets, leaving resolved and closed ones out', () => {
    const summary = summarise(
      [
        ticketWith({ id: 'IT-1', title: 'a', status: 'new' }),
        ticketWith({ id: 'IT-2', title: 'b', status: 'in_progress', assignee_email: 'sam@x' }),
        ticketWith({ id: 'IT-3', title: 'c', status: 'resolved' }),
        ticketWith({ id: 'IT-4', title: 'd', status: 'closed' }),
      ],
      base,
    );
    expect(summary).toMatchObject({ open: 2, unassigned: 1 });
  });

  it('counts a ticket past a platform due time as breached, and one due before midnight as due today', () => {
    const created = iso(NOW - 10 * HOUR);
    const summary = summarise(
      [
        ticketWith({
          id: 'IT-1',
          title: 'late',
          created_at: created,
          first_response_due_at: iso(NOW - HOUR),
          resolution_due_at: iso(NOW + 2 * HOUR),
        }),
        ticketWith({
          id: 'IT-2',
          title: 'today',
          created_at: created,
          first_response_due_at: null,
          resolution_due_at: iso(NOW + 5 * HOUR),
        }),
        ticketWith({
          id: 'IT-3',
          title: 'tomorrow',
          created_at: created,
          first_response_due_at: null,
          resolution_due_at: iso(END_OF_DAY + HOUR),
        }),
        ticketWith({
          id: 'IT-4',
          title: 'paused',
          created_at: created,
          first_response_due_at: iso(NOW - HOUR),
          resolution_due_at: iso(NOW + HOUR),
          sla_paused: true,
          status: 'waiting_on_requester',
        }),
      ],
      base,
    );
    expect(summary).toMatchObject({ open: 4, breached: 1, dueToday: 2 });
  });

  it('uses SLA_TARGETS when the platform gives no clocks, and an answered ticket’s first response is met', () => {
    const targets = parseServiceTargets('it:high=1h/3d').targets;
    const old = ticketWith({
      id: 'IT-1',
      title: 'old',
      priority: 'high',
      created_at: iso(NOW - 2 * HOUR),
    });
    const answered = ticketWith({ ...old, id: 'IT-2' });
    const summary = summarise([old, answered], {
      ...base,
      targets,
      firstRespondedAtMs: (ticket) => (ticket.id === 'IT-2' ? NOW - HOUR : undefined),
    });
    expect(summary.breached).toBe(1);
  });

  it('keeps the five oldest unassigned tickets, oldest first', () => {
    const tickets = [7, 3, 9, 1, 5, 2, 8].map((hours) =>
      ticketWith({ id: `IT-${hours}`, title: `t${hours}`, created_at: iso(NOW - hours * HOUR) }),
    );
    const summary = summarise(tickets, base);
    expect(summary.oldestUnassigned.map((t) => t.id)).toEqual([
      'IT-9',
      'IT-8',
      'IT-7',
      'IT-5',
      'IT-3',
    ]);
  });
});
