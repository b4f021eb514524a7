import { describe, expect, it } from 'vitest';
import type { Envelope, Ticket } from '../../../src/contract/schemas.ts';
import type { ListTicketsQuery } from '../../../src/servicedesk/index.ts';
import type { QueueAsk } from '../../../src/slack/deps.ts';
import {
  ALL_DESKS,
  afterTaking,
  queueAskFor,
  readAgentQueue,
} from '../../../src/slack/people/agent-queue.ts';
import { PeopleReads, type PeopleReadsOptions } from '../../../src/slack/people/fair-share.ts';
import { MemoryFairShareStore } from '../../../src/store/memory-fair-share.ts';
import type { FairShareBucket } from '../../../src/store/types.ts';
import { fakePart, silentLogger } from '../support/fake-deps.ts';

const SAM = 'sam.rivera@acme.example';
const T0 = Date.parse('2026-11-20T12:00:00Z');

const ticket = (n: number, extra: Partial<Ticket> = {}): Ticket => ({
  id: `IT-${n}`,
  title: `Ticket ${n}`,
  status: 'open',
  priority: 'medium',
  desk_id: 'it',
  assignee_email: null,
  created_at: new Date(T0 - (10_000 - n) * 60_000).toISOString(),
  ...extra,
});

/** A platform over `tickets`, oldest first, honouring the filters or ignoring them. */
function platform(tickets: readonly Ticket[], filters: boolean) {
  const pages: ListTicketsQuery[] = [];
  return {
    pages,
    listTickets: async (query: ListTicketsQuery): Promise<Envelope<Ticket>> => {
      pages.push(query);
      const statuses = typeof query.status === 'string' ? [query.status] : query.status;
      const matching = filters
        ? tickets.filter(
            (t) =>
              (query.assignee_email === undefined ||
                (t.assignee_email ?? '').toLowerCase() === query.assignee_email.toLowerCase()) &&
              (statuses === undefined || statuses.includes(t.status)),
          )
        : tickets;
      const size = query.page_size ?? 25;
      const from = ((query.page ?? 1) - 1) * size;
      return { items: matching.slice(from, from + size), total_count: matching.length };
    },
  };
}

const ask = (room = 20, scope = ALL_DESKS): QueueAsk => ({
  email: SAM,
  scope,
  unassignedRoom: () => room,
});

/** 200 of Sam's, 500 unassigned, and what neither list may show. */
function bigTenant(): Ticket[] {
  const tickets: Ticket[] = [];
  let n = 1;
  for (let i = 0; i < 500; i++) tickets.push(ticket(n++));
  for (let i = 0; i < 200; i++) tickets.push(ticket(n++, { assignee_email: SAM }));
  tickets.push(ticket(n++, { assignee_email: SAM, status: 'resolved' }));
  tickets.push(ticket(n++, { assignee_email: 'ana.lima@acme.example' }));
  return tickets;
}

describe('reading an agent’s queue', () => {
  it('reads 200 assigned and a page of the unassigned that fit in three requests', async () => {
    const lister = platform(bigTenant(), true);
    const queue = await readAgentQueue(lister, ask(22));
    expect(queue.assigned).toHaveLength(200);
    expect(queue.unassigned).toHaveLength(22);
    expect(queue.unassignedTotal).toBe(500);
    expect(lister.pages.map((q) => [q.assignee_email, q.page, q.page_size])).toEqual([
      [SAM, 1, 100],
      [SAM, 2, 100],
      ['', 1, 22],
    ]);
    expect(lister.pages[0]?.status).toEqual(['new', 'open', 'in_progress', 'waiting_on_requester']);
  });

  it('shows the same tickets when the platform ignores the filters, and none it should not', async () => {
    const tickets = [
      ticket(1),
      ticket(2, { assignee_email: 'SAM.Rivera@acme.example' }),
      ticket(3, { assignee_email: SAM, status: 'closed' }),
      ticket(4, { assignee_email: 'ana.lima@acme.example' }),
      ticket(5, { status: 'resolved' }),
      ticket(6, { status: 'waiting_on_requester' }),
    ];
    const filtered = await readAgentQueue(platform(tickets, true), ask());
    const ignoring = platform(tickets, false);
    const unfiltered = await readAgentQueue(ignoring, ask());
    const ids = (q: typeof filtered) => [
      q.assigned.map((t) => t.id),
      q.unassigned.map((t) => t.id),
    ];
    expect(ids(unfiltered)).toEqual([['IT-2'], ['IT-1', 'IT-6']]);
    expect(ids(filtered)).toEqual(ids(unfiltered));
    expect(unfiltered.unassignedTotal).toBe(2);
    // One scan served both lists.
    expect(ignoring.pages).toHaveLength(1);
  });

  it('keeps to the agent’s desks when they are an agent of some desks only', async () => {
    const tickets = [ticket(1), ticket(2, { desk_id: 'hr' }), ticket(3, { desk_id: null })];
    const scope = {
      key: 'C_HR',
      covers: (t: Pick<Ticket, 'desk_id'>) => t.desk_id === 'hr',
      allDesks: false,
    };
    const queue = await readAgentQueue(platform(tickets, true), ask(20, scope));
    expect(queue.unassigned.map((t) => t.id)).toEqual(['IT-2']);
    expect(queue.unassignedTotal).toBe(1);
  });

  it('bounds the scan of a platform without the filters', async () => {
    const lister = platform(bigTenant(), false);
    const queue = await readAgentQueue(lister, ask(22));
    expect(lister.pages.length).toBeLessThanOrEqual(5);
    expect(queue.unassigned).toHaveLength(22);
    expect(queue.assignedMore).toBe(true);
    expect(queue.assigned.every((t) => t.assignee_email === SAM && t.status !== 'resolved')).toBe(
      true,
    );
  });
});

describe('who has a queue', () => {
  const none = {
    deskChannels: async () => ({ channels: new Set<string>(), routedTo: () => undefined }),
  };

  it('gives AGENT_EMAILS agents every desk', async () => {
    const found = await queueAskFor(
      { people: { isAgent: async () => true }, triageMembers: none },
      'U1',
      SAM,
      () => 10,
    );
    expect(found?.scope.allDesks).toBe(true);
  });

  it('gives a triage channel’s member the desks routed to it, and nobody else a queue', async () => {
    const members = {
      deskChannels: async (userId: string) => ({
        channels: new Set(userId === 'U_HR' ? ['C_HR'] : []),
        routedTo: (desk: string | null | undefined) =>
          desk === 'hr' || desk === 'hr-payroll' ? 'C_HR' : 'C_ALL',
      }),
    };
    const deps = { people: { isAgent: async () => false }, triageMembers: members };
    const found = await queueAskFor(deps, 'U_HR', 'hr@acme.example', () => 10);
    expect(found?.scope.covers({ desk_id: 'hr-payroll' })).toBe(true);
    expect(found?.scope.covers({ desk_id: 'it' })).toBe(false);
    expect(await queueAskFor(deps, 'U_ALICE', 'alice@acme.example', () => 10)).toBeUndefined();
  });
});

describe('an agent’s kept queue', () => {
  function setUp(buckets?: FairShareBucket[]) {
    let time = T0;
    const lister = platform(bigTenant(), true);
    const reads = new PeopleReads({
      ...(buckets ? { buckets } : {}),
      store: new MemoryFairShareStore(() => time),
      serviceDesk: fakePart<PeopleReadsOptions['serviceDesk']>('serviceDesk', lister),
      logger: silentLogger(),
      now: () => time,
    });
    return { reads, lister, advance: (ms: number) => (time += ms) };
  }

  it('answers from one read for a minute, then reads again', async () => {
    const { reads, lister, advance } = setUp();
    await reads.agentQueue('U_SAM', ask(22), 'home');
    const first = lister.pages.length;
    advance(59_000);
    const again = await reads.agentQueue('U_SAM', ask(22), 'queue');
    expect(again.kind === 'read' && again.source).toBe('cache');
    expect(lister.pages.length).toBe(first);
    advance(2_000);
    await reads.agentQueue('U_SAM', ask(22), 'home');
    expect(lister.pages.length).toBe(2 * first);
  });

  it('takes the reads from the agent’s fair share, and shows the kept queue with a refusal once it is spent', async () => {
    const { reads, lister, advance } = setUp([{ capacity: 1, refillEveryMs: 3_600_000 }]);
    expect((await reads.agentQueue('U_SAM', ask(22), 'home')).kind).toBe('read');
    const pages = lister.pages.length;
    advance(61_000);
    const refused = await reads.agentQueue('U_SAM', ask(22), 'home');
    expect(refused.kind).toBe('busy');
    expect(refused.kind === 'busy' && refused.reason).toBe('fair_share');
    expect(refused.kind === 'busy' && refused.kept?.value.assigned).toHaveLength(200);
    expect(lister.pages.length).toBe(pages);
    // Someone else's share is their own.
    expect(
      (await reads.agentQueue('U_ANA', { ...ask(22), email: 'ana@acme.example' }, 'home')).kind,
    ).toBe('read');
  });

  it('moves a ticket the agent took to their assigned tickets without a read', async () => {
    const { reads, lister } = setUp();
    const read = await reads.agentQueue('U_SAM', ask(22), 'home');
    const taken = read.kind === 'read' ? read.value.unassigned[0]?.id : undefined;
    const pages = lister.pages.length;
    const took = await reads.tookFromQueue(ask(22), taken ?? '');
    expect(took?.changed).toBe(true);
    expect(took?.queue.assigned.at(-1)).toMatchObject({ id: taken, assignee_email: SAM });
    expect(took?.queue.unassigned.some((t) => t.id === taken)).toBe(false);
    expect((await reads.tookFromQueue(ask(22), taken ?? ''))?.changed).toBe(false);
    expect(lister.pages.length).toBe(pages);
  });
});

describe('a ticket an agent takes', () => {
  const kept = {
    assigned: [ticket(1, { assignee_email: SAM })],
    assignedMore: false,
    unassigned: [ticket(2), ticket(3)],
    unassignedTotal: 2,
  };

  it('moves from Unassigned to Assigned to me in the kept queue', () => {
    const after = afterTaking(kept, 'IT-2', SAM);
    expect(after.assigned.map((t) => t.id)).toEqual(['IT-1', 'IT-2']);
    expect(after.unassigned.map((t) => t.id)).toEqual(['IT-3']);
    expect(after.unassignedTotal).toBe(1);
  });

  it('is listed from the assignment’s answer when it is newer than the kept queue', () => {
    const after = afterTaking(kept, 'IT-9', SAM, ticket(9, { assignee_email: SAM }));
    expect(after.assigned.map((t) => t.id)).toEqual(['IT-1', 'IT-9']);
    expect(after.unassignedTotal).toBe(2);
  });

  it('is not listed when the assignment left it resolved', () => {
    expect(afterTaking(kept, 'IT-9', SAM, ticket(9, { status: 'resolved' }))).toBe(kept);
  });
});
