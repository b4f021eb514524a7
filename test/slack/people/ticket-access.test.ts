import { describe, expect, it } from 'vitest';
import type { Ticket } from '../../../src/contract/schemas.ts';
import {
  type Actor,
  decideChange,
  mayAskForPerson,
} from '../../../src/slack/people/ticket-access.ts';

const ticket: Ticket = {
  id: 'IT-7',
  title: 'Laptop will not boot',
  status: 'in_progress',
  priority: 'medium',
  created_at: '2026-11-20T09:30:00Z',
  requester_email: 'alice@acme.example',
  assignee_email: null,
};
const requester: Actor = { userId: 'U0ALICE', email: 'alice@acme.example', isAgent: false };
const agent: Actor = { userId: 'U0AGENT', email: 'sam.rivera@acme.example', isAgent: true };
const stranger: Actor = { userId: 'U0BOB', email: 'bob@acme.example', isAgent: false };

describe('change rules', () => {
  it('raises the priority one step from where the raise started', () => {
    expect(decideChange(ticket, agent, { kind: 'raise_priority', from: 'medium' })).toEqual({
      outcome: 'change',
      input: { priority: 'high' },
    });
  });

  it('changes nothing on a raise whose step is made already (a retry whose write landed)', () => {
    const raised = { ...ticket, priority: 'high' as const };
    expect(decideChange(raised, agent, { kind: 'raise_priority', from: 'medium' })).toEqual({
      outcome: 'unchanged',
    });
  });

  it('never lowers a priority a colleague raised further meanwhile', () => {
    const urgent = { ...ticket, priority: 'urgent' as const };
    expect(decideChange(urgent, agent, { kind: 'raise_priority', from: 'low' })).toEqual({
      outcome: 'unchanged',
    });
  });

  it('changes nothing on a raise of an urgent ticket', () => {
    const urgent = { ...ticket, priority: 'urgent' as const };
    expect(decideChange(urgent, agent, { kind: 'raise_priority', from: 'urgent' })).toEqual({
      outcome: 'unchanged',
    });
  });

  it('refuses a raise to the requester', () => {
    expect(decideChange(ticket, requester, { kind: 'raise_priority', from: 'medium' })).toEqual({
      outcome: 'refused',
      reason: 'agents_only',
    });
  });

  it('lets an agent change status, priority and assignee, sending only what differs', () => {
    expect(
      decideChange(ticket, agent, {
        kind: 'fields',
        status: 'in_progress',
        priority: 'urgent',
        assigneeEmail: 'sam.rivera@acme.example',
      }),
    ).toEqual({
      outcome: 'change',
      input: { priority: 'urgent', assignee_email: 'sam.rivera@acme.example' },
    });
  });

  it('refuses the update modal’s change to the requester', () => {
    expect(decideChange(ticket, requester, { kind: 'fields', status: 'closed' })).toEqual({
      outcome: 'refused',
      reason: 'agents_only',
    });
  });

  it('refuses any change to someone who is neither requester nor agent', () => {
    for (const kind of ['resolve', 'reopen', 'assign_to_me'] as const) {
      expect(decideChange(ticket, stranger, { kind })).toEqual({
        outcome: 'refused',
        reason: 'not_visible',
      });
    }
  });

  it('refuses "Assign to me" to the requester', () => {
    expect(decideChange(ticket, requester, { kind: 'assign_to_me' })).toEqual({
      outcome: 'refused',
      reason: 'agents_only',
    });
  });

  it('assigns the ticket to the agent who clicked "Assign to me"', () => {
    expect(decideChange(ticket, agent, { kind: 'assign_to_me' })).toEqual({
      outcome: 'change',
      input: { assignee_email: 'sam.rivera@acme.example' },
    });
  });

  it('changes nothing when the agent already has the ticket', () => {
    const assigned = { ...ticket, assignee_email: 'Sam.Rivera@acme.example' };
    expect(decideChange(assigned, agent, { kind: 'assign_to_me' })).toEqual({
      outcome: 'unchanged',
    });
  });

  it('lets the requester mark their open ticket resolved', () => {
    expect(decideChange(ticket, requester, { kind: 'resolve' })).toEqual({
      outcome: 'change',
      input: { status: 'resolved' },
    });
  });

  it('matches the requester by email whatever its case', () => {
    const shouting = { ...ticket, requester_email: 'ALICE@ACME.EXAMPLE' };
    expect(decideChange(shouting, requester, { kind: 'resolve' }).outcome).toBe('change');
  });

  it('lets the requester reopen a resolved ticket', () => {
    expect(decideChange({ ...ticket, status: 'resolved' }, requester, { kind: 'reopen' })).toEqual({
      outcome: 'change',
      input: { status: 'open' },
    });
  });

  it('treats a repeated "Mark resolved" as already done', () => {
    expect(decideChange({ ...ticket, status: 'resolved' }, requester, { kind: 'resolve' })).toEqual(
      { outcome: 'unchanged' },
    );
  });

  it('treats "Reopen" on a ticket that is not resolved as already done', () => {
    expect(decideChange(ticket, requester, { kind: 'reopen' })).toEqual({ outcome: 'unchanged' });
  });

  it('refuses every change to a closed ticket, even an agent’s', () => {
    const closed = { ...ticket, status: 'closed' };
    expect(decideChange(closed, agent, { kind: 'fields', status: 'open' })).toEqual({
      outcome: 'refused',
      reason: 'closed',
    });
    expect(decideChange(closed, requester, { kind: 'reopen' })).toEqual({
      outcome: 'refused',
      reason: 'closed',
    });
  });

  it('refuses "Assign to me" to an agent whose Slack profile has no email', () => {
    expect(decideChange(ticket, { ...agent, email: undefined }, { kind: 'assign_to_me' })).toEqual({
      outcome: 'refused',
      reason: 'no_email',
    });
  });

  it('lets only the requester or an agent ask for a person', () => {
    expect(mayAskForPerson(ticket, requester)).toBeUndefined();
    expect(mayAskForPerson(ticket, agent)).toBeUndefined();
    expect(mayAskForPerson(ticket, stranger)).toBe('not_visible');
  });
});
