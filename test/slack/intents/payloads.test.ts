import { describe, expect, it } from 'vitest';
import { createTicket } from '../../../src/slack/intents/create-ticket.ts';
import { updateTicket } from '../../../src/slack/intents/update-ticket.ts';

// Entries as they sit in Redis today, written by the listeners: a release must still run them.
const QUEUED_CREATE = [
  {
    actorUserId: 'U0ALICE',
    requesterUserIds: ['U0ALICE', 'U0BOB'],
    ticket: {
      title: 'Laptop will not boot',
      description: 'Since this morning',
      desk_id: 'it',
      priority: 'high',
      custom_fields: { asset: 'LT-1', cost: 3, tags: ['a', 'b'] },
    },
    reply: { kind: 'card', channel: 'C0HELP' },
    viewId: 'V0MODAL',
    responseUrl: 'https://hooks.slack.test/r/1',
    workflowStep: { executionId: 'Fx0RUN' },
  },
  {
    actorUserId: 'U0ALICE',
    requesterUserIds: ['U0ALICE'],
    fromMessage: { channel: 'C0GENERAL', ts: '1700000000.000100', threadTs: '1700000000.000001' },
    reply: { kind: 'thread', channel: 'C0GENERAL' },
    appUserId: 'U0APP',
    moveThread: true,
    tellDelayPrivately: true,
    pane: true,
  },
];

const QUEUED_UPDATE = [
  {
    ticketId: 'T-1',
    actorUserId: 'U0ALICE',
    request: { kind: 'fields', status: 'in_progress', priority: 'urgent', assigneeUserId: 'U0BOB' },
    viewId: 'V0UPDATE',
  },
  {
    ticketId: 'T-1',
    actorUserId: 'U0ALICE',
    request: { kind: 'assign_to_me' },
    card: { kind: 'card', channel: 'C0HELP', ts: '1700000000.000200', lead: 'Filed by Alice' },
  },
  { ticketId: 'T-1', actorUserId: 'U0ALICE', request: { kind: 'resolve' } },
  { ticketId: 'T-1', actorUserId: 'U0ALICE', request: { kind: 'reopen' } },
  { ticketId: 'T-1', actorUserId: 'U0ALICE', request: { kind: 'raise_priority' } },
];

describe('ticket intents queued before the payloads moved', () => {
  it('keep their outbox kinds', () => {
    expect([createTicket.kind, updateTicket.kind]).toEqual(['create_ticket', 'update_ticket']);
  });

  it('parse a queued create-ticket entry of every shape, every field kept', () => {
    for (const queued of QUEUED_CREATE)
      expect(createTicket.schema.parse(JSON.parse(JSON.stringify(queued)))).toEqual(queued);
  });

  it('parse a queued update-ticket entry of every request kind, every field kept', () => {
    for (const queued of QUEUED_UPDATE)
      expect(updateTicket.schema.parse(JSON.parse(JSON.stringify(queued)))).toEqual(queued);
  });
});
