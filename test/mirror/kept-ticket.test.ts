import { describe, expect, it } from 'vitest';
import { drawTicket, keepTicket, keptTicket } from '../../src/mirror/kept-ticket.ts';
import type { Activity, Ticket } from '../../src/servicedesk/index.ts';

const T0 = Date.parse('2026-11-26T10:00:00.000Z');
const ticket: Ticket = {
  id: 'IT-7',
  title: 'VPN drops',
  status: 'open',
  priority: 'medium',
  created_at: '2026-11-26T09:00:00.000Z',
  updated_at: '2026-11-26T10:00:00.000Z',
  requester_email: 'alice@acme.example',
  assignee_email: null,
};
const entry = (type: string, to: string | null, at: string, from: string | null = null) =>
  ({
    id: `a-${at}`,
    ticket_id: 'IT-7',
    type,
    from,
    to,
    actor: 'sam@acme.example',
    created_at: at,
  }) as Activity;

describe('the kept ticket', () => {
  it('gives back a ticket kept less than its age limit ago', () => {
    const text = keepTicket(ticket, T0);
    expect(keptTicket(text, T0 + 1_000)?.ticket).toEqual(ticket);
  });

  it('is not trusted once older than its limit, nor when the record holds something else', () => {
    const text = keepTicket(ticket, T0);
    expect(keptTicket(text, T0 + 6 * 3_600_000)).toBeUndefined();
    expect(keptTicket('not json', T0)).toBeUndefined();
    expect(keptTicket(JSON.stringify({ at: T0, ticket: { id: 'IT-7' } }), T0)).toBeUndefined();
  });

  it('draws a pause into a ticket with the platform’s clocks, and reads whole what moves its due times', () => {
    const clocked: Ticket = {
      ...ticket,
      first_response_due_at: '2026-11-26T13:00:00.000Z',
      resolution_due_at: null,
      sla_paused: false,
    };
    const paused = drawTicket(clocked, [
      entry('status_changed', 'waiting_on_requester', '2026-11-26T10:01:00.000Z', 'open'),
    ]);
    expect(paused?.sla_paused).toBe(true);
    // A new priority moves the due times, and so does the end of a pause (by the time paused).
    expect(
      drawTicket(clocked, [entry('priority_changed', 'high', '2026-11-26T10:01:00.000Z')]),
    ).toBeUndefined();
    expect(
      drawTicket(paused as Ticket, [entry('status_changed', 'open', '2026-11-26T10:02:00.000Z')]),
    ).toBeUndefined();
    // A ticket without the platform's clocks draws them as before.
    expect(
      drawTicket(ticket, [entry('priority_changed', 'high', '2026-11-26T10:01:00.000Z')])?.priority,
    ).toBe('high');
  });

  it('draws the status, priority and assignee the activity changed after its version', () => {
    const drawn = drawTicket(ticket, [
      entry('status_changed', 'in_progress', '2026-11-26T10:01:00.000Z', 'open'),
      entry('message_added', 'msg_1', '2026-11-26T10:01:30.000Z'),
      entry('priority_changed', 'high', '2026-11-26T10:02:00.000Z', 'medium'),
      entry('assigned', 'sam@acme.example', '2026-11-26T10:03:00.000Z'),
    ]);
    expect(drawn).toMatchObject({
      status: 'in_progress',
      priority: 'high',
      assignee_email: 'sam@acme.example',
      updated_at: '2026-11-26T10:03:00.000Z',
    });
  });

  it('leaves out changes its version already holds', () => {
    const drawn = drawTicket({ ...ticket, status: 'resolved' }, [
      entry('status_changed', 'in_progress', '2026-11-26T09:59:00.000Z', 'open'),
    ]);
    expect(drawn?.status).toBe('resolved');
  });

  it('cannot be drawn for a team assigned, or without a version', () => {
    expect(
      drawTicket(ticket, [entry('assigned', 'Network', '2026-11-26T10:01:00.000Z')]),
    ).toBeUndefined();
    expect(drawTicket({ ...ticket, updated_at: null }, [])).toBeUndefined();
  });
});
