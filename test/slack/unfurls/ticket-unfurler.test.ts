import type { ChatUnfurlArguments } from '@slack/web-api';
import { describe, expect, it, vi } from 'vitest';
import type { Ticket } from '../../../src/contract/schemas.ts';
import { NotFoundError } from '../../../src/servicedesk/index.ts';
import type { KeptValue, PersonRead } from '../../../src/slack/deps.ts';
import { TicketStatusMemo } from '../../../src/slack/tickets/ticket-status-memo.ts';
import { unfurlTicketLinks } from '../../../src/slack/unfurls/ticket-unfurler.ts';
import { createMemoryStores } from '../../../src/store/index.ts';
import { ticketWith } from '../../support/ticket-fixture.ts';
import { fakeDeps } from '../support/fake-deps.ts';

const HOST = 'desk.acme.example';
const link = (id: string) => `https://${HOST}/tickets/${id}`;
const ALICE = { id: 'U0ALICE', email: 'alice@acme.example' };

interface Setup {
  isAgent?: boolean;
  read?: (userId: string, ticketId: string) => Promise<PersonRead<Ticket>>;
  kept?: KeptValue<Ticket>;
  known?: { requesterEmail: string | undefined; polledAt?: number };
  /** What the status memo remembered of a ticket (a filing from Slack remembers it). */
  remembered?: Ticket;
}

function unfurlDeps(setup: Setup) {
  const unfurl = vi.fn(async (_args: ChatUnfurlArguments) => ({ ok: true }));
  const ticket = vi.fn(
    setup.read ?? (async (): Promise<PersonRead<Ticket>> => Promise.reject(new Error('no read'))),
  );
  const statuses = new TicketStatusMemo();
  if (setup.remembered) statuses.remember(setup.remembered);
  const deps = fakeDeps({
    client: { chat: { unfurl } },
    people: {
      isAgent: async () => setup.isAgent ?? false,
      person: async (id: string) => ({ id, name: 'Alice', email: ALICE.email, isBot: false }),
      email: async () => ALICE.email,
      byEmail: async () => undefined,
    },
    reads: { ticket, keptTicket: async () => setup.kept },
    statuses,
    mirror: {
      lastRead: async () =>
        setup.known
          ? {
              status: 'open',
              requesterEmail: setup.known.requesterEmail,
              polledAt: setup.known.polledAt ?? 1,
            }
          : undefined,
    },
    desks: { peek: () => [{ slug: 'it', name: 'IT Support', parent_slug: null }] },
    settings: { dashboardHosts: [HOST], dashboardUrl: undefined },
    stores: createMemoryStores(),
  });
  return { deps, unfurl, ticket };
}

/** The unfurls a chat.unfurl call sent (its other form carries metadata instead). */
const unfurlsIn = (args: ChatUnfurlArguments | undefined) =>
  args && 'unfurls' in args ? args.unfurls : undefined;

const share = (links: string[]) => ({
  channel: 'C1',
  messageTs: '1.000001',
  user: ALICE.id,
  links,
});
const aliceTicket = (id: string) =>
  ticketWith({ id, title: `Ticket ${id}`, requester_email: ALICE.email, desk_id: 'it' });

describe('unfurling ticket links', () => {
  it('never reads a ticket for a person the app does not know as its requester', async () => {
    const { deps, unfurl, ticket } = unfurlDeps({});
    await unfurlTicketLinks(deps, share([link('IT-1')]));
    expect(ticket).not.toHaveBeenCalled();
    expect(JSON.stringify(unfurlsIn(unfurl.mock.calls[0]?.[0]))).toContain(
      'IT-1 · a private ticket',
    );
  });

  it('reads a ticket the person filed from Slack when a later poll of the mirror did not keep its requester', async () => {
    const { deps, unfurl, ticket } = unfurlDeps({
      remembered: aliceTicket('IT-20'),
      known: { requesterEmail: undefined, polledAt: Date.now() + 60_000 },
      read: async () => ({ kind: 'read', value: aliceTicket('IT-20'), source: 'platform' }),
    });
    await unfurlTicketLinks(deps, share([link('IT-20')]));
    expect(ticket).toHaveBeenCalledTimes(1);
    expect(JSON.stringify(unfurlsIn(unfurl.mock.calls[0]?.[0]))).toContain('Ticket IT-20');
  });

  it('reads a ticket the mirror knows the person requested, and shows its desk by name', async () => {
    const { deps, unfurl, ticket } = unfurlDeps({
      known: { requesterEmail: ALICE.email },
      read: async () => ({ kind: 'read', value: aliceTicket('IT-2'), source: 'platform' }),
    });
    await unfurlTicketLinks(deps, share([link('IT-2')]));
    expect(ticket).toHaveBeenCalledTimes(1);
    const card = JSON.stringify(unfurlsIn(unfurl.mock.calls[0]?.[0]));
    expect(card).toContain('Ticket IT-2');
    expect(card).toContain('IT Support');
  });

  it('shows a private ticket when the read says someone else requested it after all', async () => {
    const { deps, unfurl } = unfurlDeps({
      known: { requesterEmail: ALICE.email },
      read: async () => ({
        kind: 'read',
        value: ticketWith({ id: 'IT-3', title: 'Secret', requester_email: 'bob@acme.example' }),
        source: 'platform',
      }),
    });
    await unfurlTicketLinks(deps, share([link('IT-3')]));
    const unfurls = JSON.stringify(unfurlsIn(unfurl.mock.calls[0]?.[0]));
    expect(unfurls).not.toContain('Secret');
    expect(unfurls).toContain('a private ticket');
  });

  it('unfurls from the kept read when the share is spent, and leaves the link bare without one', async () => {
    const kept = { value: aliceTicket('IT-4'), keptAt: 1 };
    const { deps, unfurl } = unfurlDeps({
      isAgent: true,
      read: async (_user, id) => ({
        kind: 'busy',
        reason: 'fair_share',
        retryAt: 2,
        kept: id === 'IT-4' ? kept : undefined,
      }),
    });
    await unfurlTicketLinks(deps, share([link('IT-4'), link('IT-5')]));
    expect(Object.keys(unfurlsIn(unfurl.mock.calls[0]?.[0]) ?? {})).toEqual([link('IT-4')]);
  });

  it('answers a ticket that does not exist as a private ticket, even for an agent', async () => {
    const { deps, unfurl } = unfurlDeps({
      isAgent: true,
      read: async () =>
        Promise.reject(
          new NotFoundError({
            operation: 'getTicket',
            method: 'GET',
            path: '/api/v1/tickets/IT-6/',
            status: 404,
            headers: {},
            body: { detail: 'Not Found' },
          }),
        ),
    });
    await unfurlTicketLinks(deps, share([link('IT-6')]));
    expect(JSON.stringify(unfurlsIn(unfurl.mock.calls[0]?.[0]))).toContain(
      'IT-6 · a private ticket',
    );
  });

  it('unfurls a message once, however often the event comes', async () => {
    const { deps, unfurl } = unfurlDeps({});
    await Promise.all([
      unfurlTicketLinks(deps, share([link('IT-7')])),
      unfurlTicketLinks(deps, share([link('IT-7')])),
    ]);
    await unfurlTicketLinks(deps, share([link('IT-7')]));
    expect(unfurl).toHaveBeenCalledTimes(1);
  });
});
