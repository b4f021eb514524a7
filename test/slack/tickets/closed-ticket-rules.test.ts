import { describe, expect, it } from 'vitest';
import type { MirroredTicket } from '../../../src/mirror/index.ts';
import { ChangeRefusedError, ClosedTicketError } from '../../../src/slack/errors.ts';
import {
  lastKnownStatus,
  refuseIfKnownClosed,
  refuseReopenByOthers,
} from '../../../src/slack/tickets/closed-ticket-rules.ts';
import { TicketStatusMemo } from '../../../src/slack/tickets/ticket-status-memo.ts';
import { ticketWith } from '../../support/ticket-fixture.ts';
import { fakeDeps } from '../support/fake-deps.ts';

const NOW = 1_000_000_000;

function depsWith(memo: TicketStatusMemo, read: Partial<MirroredTicket> | undefined) {
  return fakeDeps({
    statuses: memo,
    mirror: { lastRead: async () => read as MirroredTicket | undefined },
  });
}

describe('last known status of a ticket', () => {
  it('takes a closed status from the mirror’s shared record when this process knows none', async () => {
    const memo = new TicketStatusMemo({ now: () => NOW });
    const deps = depsWith(memo, { status: 'closed', requesterEmail: 'a@x', polledAt: 0 });
    expect((await lastKnownStatus(deps, 'IT-1'))?.status).toBe('closed');
  });

  it('prefers what this process saw itself', async () => {
    const memo = new TicketStatusMemo({ now: () => NOW });
    memo.remember({ id: 'IT-1', status: 'open', requester_email: 'a@x' });
    const deps = depsWith(memo, { status: 'resolved', polledAt: NOW - 1 });
    expect((await lastKnownStatus(deps, 'IT-1'))?.status).toBe('open');
  });

  it('does not trust an old "resolved" from a mirror that stopped polling the ticket', async () => {
    const memo = new TicketStatusMemo({ ttlMs: 60_000, now: () => NOW });
    const deps = depsWith(memo, { status: 'resolved', polledAt: NOW - 120_000 });
    expect(await lastKnownStatus(deps, 'IT-1')).toBeUndefined();
  });

  it('knows nothing when the mirror’s record cannot be read', async () => {
    const memo = new TicketStatusMemo({ now: () => NOW });
    const deps = fakeDeps({
      statuses: memo,
      mirror: {
        lastRead: async () => {
          throw new Error('redis down');
        },
      },
    });
    expect(await lastKnownStatus(deps, 'IT-1')).toBeUndefined();
  });

  it('refuses a reply to a ticket known to be closed before any platform request', () => {
    expect(() =>
      refuseIfKnownClosed('IT-1', { status: 'closed', requesterEmail: undefined, at: 0 }),
    ).toThrow(ClosedTicketError);
    expect(() => refuseIfKnownClosed('IT-1', undefined)).not.toThrow();
  });
});

describe('who may reopen a resolved ticket by replying', () => {
  const ALICE = 'alice@acme.example';
  const BOB = 'bob@acme.example';
  function depsReading(memo: TicketStatusMemo, requester: string | null) {
    const reads: string[] = [];
    const deps = fakeDeps({
      statuses: memo,
      people: { isAgent: async () => false },
      serviceDesk: {
        getTicket: async (id: string) => {
          reads.push(id);
          return ticketWith({ id, title: 'VPN', status: 'resolved', requester_email: requester });
        },
      },
    });
    return { deps, reads };
  }
  const reply = { ticketId: 'IT-7', userId: 'U1' };
  const resolvedUnknownRequester = { status: 'resolved', requesterEmail: undefined, at: NOW };

  it('reads the ticket when the record does not know the requester, and lets the requester through', async () => {
    const memo = new TicketStatusMemo({ now: () => NOW });
    const { deps, reads } = depsReading(memo, ALICE);
    const known = await refuseReopenByOthers(deps, reply, resolvedUnknownRequester, ALICE);
    expect(reads).toEqual(['IT-7']);
    expect(known).toMatchObject({ status: 'resolved', requesterEmail: ALICE });
  });

  it('refuses a colleague once the ticket read names someone else as the requester', async () => {
    const memo = new TicketStatusMemo({ now: () => NOW });
    const { deps } = depsReading(memo, ALICE);
    await expect(
      refuseReopenByOthers(deps, reply, resolvedUnknownRequester, BOB),
    ).rejects.toBeInstanceOf(ChangeRefusedError);
  });

  it('refuses a colleague without a platform request when the record knows the requester', async () => {
    const memo = new TicketStatusMemo({ now: () => NOW });
    const { deps, reads } = depsReading(memo, ALICE);
    const known = { status: 'resolved', requesterEmail: ALICE, at: NOW };
    await expect(refuseReopenByOthers(deps, reply, known, BOB)).rejects.toBeInstanceOf(
      ChangeRefusedError,
    );
    expect(reads).toEqual([]);
  });

  it('lets anyone write on a resolved ticket that has no requester at all', async () => {
    const memo = new TicketStatusMemo({ now: () => NOW });
    const { deps } = depsReading(memo, null);
    await expect(
      refuseReopenByOthers(deps, reply, resolvedUnknownRequester, BOB),
    ).resolves.toMatchObject({ status: 'resolved' });
  });

  it('reads the ticket when a colleague replies to a ticket this process last saw open, since another replica may have resolved it', async () => {
    const memo = new TicketStatusMemo({ now: () => NOW });
    const { deps, reads } = depsReading(memo, ALICE);
    const known = { status: 'open', requesterEmail: ALICE, at: NOW };
    await expect(refuseReopenByOthers(deps, reply, known, BOB)).rejects.toBeInstanceOf(
      ChangeRefusedError,
    );
    expect(reads).toEqual(['IT-7']);
  });

  it('lets the requester write to a ticket known open without a platform request', async () => {
    const memo = new TicketStatusMemo({ now: () => NOW });
    const { deps, reads } = depsReading(memo, ALICE);
    const known = { status: 'open', requesterEmail: ALICE, at: NOW };
    await expect(refuseReopenByOthers(deps, reply, known, ALICE)).resolves.toBe(known);
    expect(reads).toEqual([]);
  });
});
