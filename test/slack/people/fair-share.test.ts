import { describe, expect, it } from 'vitest';
import type { Ticket } from '../../../src/contract/schemas.ts';
import { BudgetExhaustedError } from '../../../src/mirror/errors.ts';
import { RateLimitError } from '../../../src/servicedesk/index.ts';
import type { KnownTicket } from '../../../src/slack/deps.ts';
import { PeopleReads, type PeopleReadsOptions } from '../../../src/slack/people/fair-share.ts';
import { StoreUnavailableError } from '../../../src/store/errors.ts';
import { MemoryFairShareStore } from '../../../src/store/memory-fair-share.ts';
import type { FairShareStore } from '../../../src/store/types.ts';
import { fakePart, silentLogger } from '../support/fake-deps.ts';

const T0 = 1_700_000_000_000;
const ticket = (status = 'open'): Ticket => ({
  id: 'IT-7',
  title: 'Printer',
  status,
  priority: 'medium',
  created_at: '2026-11-20T09:30:00Z',
  requester_email: 'alice@acme.example',
});

function setUp(
  getTicket: () => Promise<Ticket>,
  options: { store?: FairShareStore; known?: () => Promise<KnownTicket | undefined> } = {},
) {
  let time = T0;
  const now = () => time;
  const calls: string[] = [];
  const reads = new PeopleReads({
    store: options.store ?? new MemoryFairShareStore(now),
    serviceDesk: fakePart<PeopleReadsOptions['serviceDesk']>('serviceDesk', {
      getTicket: async (id: string) => {
        calls.push(id);
        return getTicket();
      },
      iterateAssets: async function* (query: { assigned_to_email: string }) {
        calls.push(`assets:${query.assigned_to_email}`);
        yield {
          id: 'ast_1',
          name: 'Laptop',
          type: 'laptop',
          serial_number: null,
          assigned_to_email: query.assigned_to_email,
        };
      },
    }),
    logger: silentLogger(),
    ...(options.known ? { known: options.known } : {}),
    now,
  });
  return { reads, calls, advance: (ms: number) => (time += ms) };
}

describe('people’s reads', () => {
  it('reads a ticket once for everyone asking at the same moment', async () => {
    const { reads, calls } = setUp(async () => ticket());
    const answers = await Promise.all([
      reads.ticket('U1', 'IT-7', 'lookup'),
      reads.ticket('U2', 'it-7', 'lookup'),
      reads.ticket('U3', 'IT-7', 'lookup'),
    ]);
    expect(calls).toEqual(['IT-7']);
    for (const answer of answers) expect(answer).toMatchObject({ kind: 'read' });
  });

  it('answers from the cache within 10 s, and asks again after', async () => {
    const { reads, calls, advance } = setUp(async () => ticket());
    await reads.ticket('U1', 'IT-7', 'lookup');
    advance(9_000);
    expect(await reads.ticket('U2', 'IT-7', 'lookup')).toMatchObject({ source: 'cache' });
    advance(1_000);
    expect(await reads.ticket('U2', 'IT-7', 'lookup')).toMatchObject({ source: 'platform' });
    expect(calls).toHaveLength(2);
  });

  it('does not serve a cached ticket whose status the app has since seen change', async () => {
    let known: KnownTicket | undefined;
    const { reads, calls, advance } = setUp(async () => ticket(), { known: async () => known });
    await reads.ticket('U1', 'IT-7', 'lookup');
    advance(2_000);
    known = { status: 'resolved', requesterEmail: undefined, at: T0 + 1_000 };
    expect(await reads.ticket('U1', 'IT-7', 'lookup')).toMatchObject({ source: 'platform' });
    expect(calls).toHaveLength(2);
  });

  it('says when a read is back once a person’s burst is spent, with the earlier read kept', async () => {
    const { reads, calls, advance } = setUp(async () => ticket());
    await reads.ticket('U1', 'IT-7', 'lookup');
    advance(10_000);
    for (let i = 0; i < 5; i++) await reads.ticket('U1', `IT-${100 + i}`, 'lookup');
    const refused = await reads.ticket('U1', 'IT-7', 'lookup');
    expect(refused).toMatchObject({
      kind: 'busy',
      reason: 'fair_share',
      kept: { value: { id: 'IT-7' }, keptAt: T0 },
    });
    if (refused.kind === 'busy') expect(refused.retryAt).toBeGreaterThan(T0 + 10_000);
    expect(calls).toHaveLength(6);
  });

  it('turns the shared budget’s refusal into busy and when, not an error', async () => {
    const { reads } = setUp(async () => {
      throw new BudgetExhaustedError('getTicket', T0 + 40_000, 0);
    });
    expect(await reads.ticket('U1', 'IT-7', 'lookup')).toEqual({
      kind: 'busy',
      reason: 'budget',
      retryAt: T0 + 40_000,
      kept: undefined,
    });
  });

  it('turns the platform’s own 429 into busy and its Retry-After', async () => {
    const { reads } = setUp(async () => {
      throw new RateLimitError({
        operation: 'getTicket',
        method: 'GET',
        path: '/tickets/IT-7',
        status: 429,
        headers: {},
        body: {},
        retryAfterMs: 30_000,
      });
    });
    expect(await reads.ticket('U1', 'IT-7', 'lookup')).toMatchObject({
      kind: 'busy',
      reason: 'budget',
      retryAt: T0 + 30_000,
    });
  });

  it('still answers a person from the platform when the store is unreachable', async () => {
    const down: FairShareStore = {
      take: async () => {
        throw new StoreUnavailableError('fairShare.take');
      },
      recall: async () => {
        throw new StoreUnavailableError('fairShare.recall');
      },
      keep: async () => {
        throw new StoreUnavailableError('fairShare.keep');
      },
    };
    const { reads } = setUp(async () => ticket(), { store: down });
    expect(await reads.ticket('U1', 'IT-7', 'lookup')).toMatchObject({
      kind: 'read',
      source: 'platform',
    });
  });

  it('reads a form’s ticket afresh and outside the person’s share', async () => {
    const { reads, calls } = setUp(async () => ticket());
    for (let i = 0; i < 8; i++) {
      expect(await reads.ticket('U1', 'IT-7', 'update', { fresh: true })).toMatchObject({
        kind: 'read',
        source: 'platform',
      });
    }
    expect(calls).toHaveLength(8);
  });

  it('keeps a person’s devices for 5 minutes: the form opened again reads the platform once', async () => {
    const { reads, calls, advance } = setUp(async () => ticket());
    expect(await reads.devices('U1', 'alice@acme.example')).toMatchObject({
      kind: 'read',
      source: 'platform',
      value: [{ id: 'ast_1' }],
    });
    advance(4 * 60_000);
    expect(await reads.devices('U1', 'Alice@acme.example')).toMatchObject({ source: 'cache' });
    advance(60_000);
    expect(await reads.devices('U1', 'alice@acme.example')).toMatchObject({ source: 'platform' });
    expect(calls).toEqual(['assets:alice@acme.example', 'assets:alice@acme.example']);
  });

  it('takes the devices’ read from the share of the person who opened the form', async () => {
    const { reads, calls } = setUp(async () => ticket());
    for (let i = 0; i < 5; i++) await reads.ticket('U1', `IT-${200 + i}`, 'lookup');
    const refused = await reads.devices('U1', 'bob@acme.example');
    expect(refused).toMatchObject({ kind: 'busy', reason: 'fair_share', kept: undefined });
    // Bob's own share is untouched: his form lists his devices.
    expect(await reads.devices('U2', 'bob@acme.example')).toMatchObject({ kind: 'read' });
    expect(calls.filter((call) => call.startsWith('assets:'))).toHaveLength(1);
  });

  it('hands the kept devices, with their time, when the person’s share is spent', async () => {
    const { reads, advance } = setUp(async () => ticket());
    await reads.devices('U1', 'alice@acme.example');
    advance(6 * 60_000);
    for (let i = 0; i < 5; i++) await reads.ticket('U1', `IT-${300 + i}`, 'lookup');
    expect(await reads.devices('U1', 'alice@acme.example')).toMatchObject({
      kind: 'busy',
      reason: 'fair_share',
      kept: { value: [{ id: 'ast_1' }], keptAt: T0 },
    });
  });

  it('pays a shared list’s read from the person’s share, and lets it be made once the share is spent', async () => {
    const { reads, calls } = setUp(async () => ticket());
    const pay = reads.payer('U1', 'form');
    for (let i = 0; i < 5; i++) await pay();
    await expect(pay()).resolves.toBeUndefined();
    // The five reads were U1's: their own lookup now waits for their share.
    const lookup = await reads.ticket('U1', 'IT-390', 'lookup');
    expect(lookup).toMatchObject({ kind: 'busy', reason: 'fair_share' });
    expect(calls).toEqual([]);
  });

  it('lets people asking at the same moment join one read, paid once by whoever started it', async () => {
    const { reads, calls } = setUp(async () => ticket());
    // U1's share is spent; U2 starts the read, U1 joins it at no cost.
    for (let i = 0; i < 5; i++) await reads.ticket('U1', `IT-${400 + i}`, 'lookup');
    const [u2, u1] = await Promise.all([
      reads.devices('U2', 'carol@acme.example'),
      reads.devices('U1', 'carol@acme.example'),
    ]);
    expect(u2).toMatchObject({ kind: 'read' });
    expect(u1).toMatchObject({ kind: 'read' });
    expect(calls.filter((call) => call.startsWith('assets:'))).toHaveLength(1);
  });

  it('starts its own read, from its own share, when the read it joined could not be paid', async () => {
    const { reads, calls } = setUp(async () => ticket());
    for (let i = 0; i < 5; i++) await reads.ticket('U1', `IT-${500 + i}`, 'lookup');
    const [u1, u2] = await Promise.all([
      reads.devices('U1', 'dave@acme.example'),
      reads.devices('U2', 'dave@acme.example'),
    ]);
    expect(u1).toMatchObject({ kind: 'busy', reason: 'fair_share' });
    expect(u2).toMatchObject({ kind: 'read' });
    expect(calls.filter((call) => call.startsWith('assets:'))).toHaveLength(1);
  });
});
