import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { SlackDeps } from '../../../src/slack/deps.ts';
import { ClosedTicketError } from '../../../src/slack/errors.ts';
import {
  lastKnownStatus,
  refuseIfKnownClosed,
} from '../../../src/slack/tickets/closed-ticket-rules.ts';
import { TicketStatusMemo } from '../../../src/slack/tickets/ticket-status-memo.ts';
import type { MirrorState } from '../../../src/store/types.ts';

const NOW = 1_000_000_000;

function depsWith(memo: TicketStatusMemo, state: Partial<MirrorState> | undefined): SlackDeps {
  return {
    statuses: memo,
    stores: { mirror: { state: async () => state } },
    logger: pino({ level: 'silent' }),
  } as unknown as SlackDeps;
}

describe('last known status of a ticket', () => {
  it('takes a closed status from the mirror’s shared record when this process knows none', async () => {
    const memo = new TicketStatusMemo({ now: () => NOW });
    const deps = depsWith(memo, { status: 'closed', requesterEmail: 'a@x', lastPolledAt: 0 });
    expect((await lastKnownStatus(deps, 'IT-1'))?.status).toBe('closed');
  });

  it('prefers what this process saw itself', async () => {
    const memo = new TicketStatusMemo({ now: () => NOW });
    memo.remember({ id: 'IT-1', status: 'open', requester_email: 'a@x' });
    const deps = depsWith(memo, { status: 'resolved', lastPolledAt: NOW - 1 });
    expect((await lastKnownStatus(deps, 'IT-1'))?.status).toBe('open');
  });

  it('does not trust an old "resolved" from a mirror that stopped polling the ticket', async () => {
    const memo = new TicketStatusMemo({ ttlMs: 60_000, now: () => NOW });
    const deps = depsWith(memo, { status: 'resolved', lastPolledAt: NOW - 120_000 });
    expect(await lastKnownStatus(deps, 'IT-1')).toBeUndefined();
  });

  it('knows nothing when the mirror’s record cannot be read', async () => {
    const memo = new TicketStatusMemo({ now: () => NOW });
    const deps = {
      ...depsWith(memo, undefined),
      stores: {
        mirror: {
          state: async () => {
            throw new Error('redis down');
          },
        },
      },
    } as unknown as SlackDeps;
    expect(await lastKnownStatus(deps, 'IT-1')).toBeUndefined();
  });

  it('refuses a reply to a ticket known to be closed before any platform request', () => {
    expect(() =>
      refuseIfKnownClosed('IT-1', { status: 'closed', requesterEmail: undefined, at: 0 }),
    ).toThrow(ClosedTicketError);
    expect(() => refuseIfKnownClosed('IT-1', undefined)).not.toThrow();
  });
});
