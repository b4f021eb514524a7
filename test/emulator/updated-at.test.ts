import { afterEach, describe, expect, it } from 'vitest';
import type { Envelope, Ticket } from '../../src/contract/schemas.ts';
import {
  EmulatorConfigError,
  EmulatorModel,
  type ModelEvent,
  type RunningEmulator,
} from '../../tools/emulator/index.ts';
import { call, emulator, ManualClock, type ValidationBody } from './support.ts';

const SAM = 'sam.rivera@acme.example';
const ANA = 'ana.lima@acme.example';
const START = Date.UTC(2025, 2, 3, 9);
const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe('emulator updated_at and updated_after', () => {
  let emu: RunningEmulator | undefined;
  let clock: ManualClock;
  afterEach(async () => {
    await emu?.close();
    emu = undefined;
  });

  async function start(options: Parameters<typeof emulator>[0] = {}): Promise<RunningEmulator> {
    clock = new ManualClock(START);
    emu = await emulator({ now: clock.now, ...options });
    return emu;
  }

  async function newTicket(running: RunningEmulator, body: Record<string, unknown> = {}) {
    const response = await call<Ticket>(running, 'createTicket', {
      body: { title: 'Laptop will not boot', requester_email: ANA, ...body },
    });
    return response.body;
  }

  async function listIds(running: RunningEmulator, query: Record<string, string>) {
    const response = await call<Envelope<Ticket>>(running, 'listTickets', { query });
    expect(response.status).toBe(200);
    return {
      ids: response.body.items.map((ticket) => ticket.id),
      total: response.body.total_count,
    };
  }

  const CHANGES: ReadonlyArray<[string, (running: RunningEmulator, id: string) => Promise<void>]> =
    [
      [
        'a requester message',
        async (running, id) => {
          await call(running, 'addMessage', {
            ticketId: id,
            body: { body: 'Any news?', author_email: ANA },
          });
        },
      ],
      [
        'an agent reply',
        async (running, id) => {
          await call(running, 'addMessage', {
            ticketId: id,
            body: { body: 'On it', author_email: SAM },
          });
        },
      ],
      [
        'an internal note',
        async (running, id) => {
          await call(running, 'addMessage', {
            ticketId: id,
            body: { body: 'Warranty expired', author_email: SAM, internal: true },
          });
        },
      ],
      [
        'a system message',
        async (running, id) => {
          await call(running, 'addMessage', { ticketId: id, body: { body: 'Reminder sent' } });
        },
      ],
      [
        "the AI agent's answer",
        async (running, id) => {
          running.model.addAiMessage('acme', id, 'Try holding the power button', []);
        },
      ],
      [
        'a status change',
        async (running, id) => {
          await call(running, 'updateTicket', { ticketId: id, body: { status: 'in_progress' } });
        },
      ],
      [
        'a priority change',
        async (running, id) => {
          await call(running, 'updateTicket', { ticketId: id, body: { priority: 'high' } });
        },
      ],
      [
        'an assignment',
        async (running, id) => {
          await call(running, 'updateTicket', { ticketId: id, body: { assignee_email: SAM } });
        },
      ],
      [
        'a team change',
        async (running, id) => {
          await call(running, 'updateTicket', { ticketId: id, body: { team: 'Hardware' } });
        },
      ],
      [
        'a desk change',
        async (running, id) => {
          running.model.setDesk('acme', id, 'it-hardware');
        },
      ],
    ];

  it.each(CHANGES)('moves updated_at to the time of %s', async (_name, change) => {
    const running = await start();
    const ticket = await newTicket(running);
    clock.advance(MINUTE);
    await change(running, ticket.id);
    const after = await call<Ticket>(running, 'getTicket', { ticketId: ticket.id });
    expect([ticket.updated_at, after.body.updated_at]).toEqual([iso(START), iso(START + MINUTE)]);
  });

  it('lists only tickets changed strictly after updated_after, oldest first by creation', async () => {
    const running = await start();
    const first = await newTicket(running);
    clock.advance(MINUTE);
    const second = await newTicket(running);
    clock.advance(MINUTE);
    await newTicket(running);
    clock.advance(MINUTE);
    const secondChangedAt = clock.ms;
    await call(running, 'updateTicket', { ticketId: second.id, body: { status: 'open' } });
    clock.advance(MINUTE);
    await call(running, 'updateTicket', { ticketId: first.id, body: { priority: 'low' } });

    const strict = await listIds(running, { updated_after: iso(secondChangedAt) });
    const justBefore = await listIds(running, { updated_after: iso(secondChangedAt - 1) });
    expect(strict).toEqual({ ids: [first.id], total: 1 });
    expect(justBefore).toEqual({ ids: [first.id, second.id], total: 2 });
  });

  it('combines updated_after with desk_id and created_after', async () => {
    const running = await start();
    const oldHardware = await newTicket(running, { desk_id: 'it-hardware' });
    clock.advance(MINUTE);
    const createdAfter = clock.ms;
    clock.advance(MINUTE);
    const hardware = await newTicket(running, { desk_id: 'it-hardware' });
    const access = await newTicket(running, { desk_id: 'it-access' });
    // Matches the desk and the creation filter but does not change: updated_after leaves it out.
    await newTicket(running, { desk_id: 'it-hardware' });
    clock.advance(MINUTE);
    const updatedAfter = clock.ms;
    clock.advance(MINUTE);
    for (const ticket of [oldHardware, hardware, access]) {
      await call(running, 'updateTicket', { ticketId: ticket.id, body: { status: 'open' } });
    }

    const listed = await listIds(running, {
      desk_id: 'it-hardware',
      created_after: iso(createdAfter),
      updated_after: iso(updatedAfter),
    });
    expect(listed).toEqual({ ids: [hardware.id], total: 1 });
  });

  it('pages through the changed tickets with total_count counting only them', async () => {
    const running = await start();
    const tickets: Ticket[] = [];
    for (let i = 0; i < 7; i += 1) tickets.push(await newTicket(running));
    clock.advance(MINUTE);
    const changed = [0, 2, 3, 5, 6].map((index) => (tickets[index] as Ticket).id);
    for (const id of changed) {
      await call(running, 'addMessage', {
        ticketId: id,
        body: { body: 'ping', author_email: SAM },
      });
    }
    const query = { updated_after: iso(START), page_size: '2' };

    const pages = [];
    for (const page of ['1', '2', '3']) pages.push(await listIds(running, { ...query, page }));
    expect(pages.map((page) => page.ids)).toEqual([
      changed.slice(0, 2),
      changed.slice(2, 4),
      changed.slice(4),
    ]);
    expect(pages.map((page) => page.total)).toEqual([5, 5, 5]);
  });

  it('answers 422 at query.updated_after for a value that is not ISO 8601', async () => {
    const running = await start();
    const response = await call<ValidationBody>(running, 'listTickets', {
      query: { updated_after: 'yesterday' },
    });
    expect(response.status).toBe(422);
    expect(response.body.detail.map((issue) => issue.loc)).toEqual([['query', 'updated_after']]);
  });

  it('ignores updated_after, even a malformed one, when the platform lacks the capability', async () => {
    const running = await start({ capabilities: { updatedAfter: false } });
    const all = await listIds(running, {});
    const future = await listIds(running, { updated_after: iso(START + 365 * 24 * 60 * MINUTE) });
    const malformed = await listIds(running, { updated_after: 'yesterday' });
    expect(all.total).toBeGreaterThan(0);
    expect([future, malformed]).toEqual([all, all]);
  });

  it('keeps updated_at on tickets when only updated_after is off', async () => {
    const running = await start({ capabilities: { updatedAfter: false } });
    const ticket = await newTicket(running);
    expect(ticket.updated_at).toBe(iso(START));
  });

  it('leaves updated_at out of every ticket when the platform has no updated_at', async () => {
    const running = await start({ capabilities: { updatedAt: false } });
    const created = await newTicket(running);
    const updated = await call<Ticket>(running, 'updateTicket', {
      ticketId: created.id,
      body: { status: 'open' },
    });
    const fetched = await call<Ticket>(running, 'getTicket', { ticketId: created.id });
    const listed = await call<Envelope<Ticket>>(running, 'listTickets', {});
    const tickets = [created, updated.body, fetched.body, ...listed.body.items];
    expect(tickets.filter((ticket) => 'updated_at' in ticket)).toEqual([]);
    expect(running.model.capabilities).toMatchObject({ updatedAt: false, updatedAfter: false });
  });

  it('refuses updated_after on a platform without updated_at', async () => {
    await expect(
      start({ capabilities: { updatedAt: false, updatedAfter: true } }),
    ).rejects.toBeInstanceOf(EmulatorConfigError);
  });

  it('ignores updatedAfterMs in the model too when the capability is off', () => {
    const model = new EmulatorModel(() => START, { updatedAfter: false });
    model.addTenant({ name: 'acme', ticketPrefix: 'IT', desks: [] });
    model.createTicket('acme', { title: 'One' });
    const page = model.listTickets('acme', { page: 1, pageSize: 25, updatedAfterMs: START + 1 });
    expect(page.total_count).toBe(1);
  });

  it('tells listeners of one ticket_updated per update, naming the fields that changed', async () => {
    const running = await start();
    const ticket = await newTicket(running);
    const events: ModelEvent[] = [];
    running.model.onEvent((event) => events.push(event));
    await call(running, 'updateTicket', {
      ticketId: ticket.id,
      body: { status: 'in_progress', priority: 'medium', team: 'Hardware' },
    });
    await call(running, 'updateTicket', { ticketId: ticket.id, body: { status: 'in_progress' } });
    expect(events).toEqual([
      {
        type: 'ticket_updated',
        tenant: 'acme',
        ticketId: ticket.id,
        fields: ['status', 'team'],
        atMs: START,
      },
    ]);
  });
});
