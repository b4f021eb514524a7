import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Activity, Envelope, Ticket } from '../../src/contract/schemas.ts';
import { isTicketId } from '../../src/contract/ticket-id.ts';
import type { RunningEmulator } from '../../tools/emulator/index.ts';
import { call, emulator, ManualClock, type ValidationBody } from './support.ts';

const SAM = 'sam.rivera@acme.example';

describe('emulator ticket lifecycle', () => {
  let emu: RunningEmulator;
  let clock: ManualClock;
  beforeEach(async () => {
    clock = new ManualClock(Date.UTC(2025, 2, 3, 9));
    emu = await emulator({ now: clock.now });
  });
  afterEach(async () => {
    await emu.close();
  });

  async function newTicket(
    body: Record<string, unknown> = { title: 'Monitor flickers' },
  ): Promise<Ticket> {
    return (await call<Ticket>(emu, 'createTicket', { body })).body;
  }

  async function activityOf(id: string): Promise<Activity[]> {
    return (
      await call<Envelope<Activity>>(emu, 'listActivity', { ticketId: id, query: { limit: '100' } })
    ).body.items;
  }

  it('creates a ticket as new, medium, with a PREFIX-NUMBER id and every field', async () => {
    const response = await call<Ticket>(emu, 'createTicket', {
      body: {
        title: 'Monitor flickers',
        desk_id: 'it-hardware',
        requester_email: 'ana.lima@acme.example',
        channel: 'slack',
      },
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      id: 'IT-19',
      title: 'Monitor flickers',
      status: 'new',
      priority: 'medium',
      created_at: '2025-03-03T09:00:00.000Z',
      updated_at: '2025-03-03T09:00:00.000Z',
      description: null,
      desk_id: 'it-hardware',
      requester_email: 'ana.lima@acme.example',
      assignee_email: null,
      team: null,
      channel: 'slack',
    });
    expect(isTicketId(response.body.id)).toBe(true);
    expect(response.body.url).toBe(`${emu.url}/dashboard/acme/tickets/IT-19`);
  });

  it('keeps a priority given on create', async () => {
    expect((await newTicket({ title: 'Server room hot', priority: 'urgent' })).priority).toBe(
      'urgent',
    );
  });

  it('logs the creation as the first activity entry', async () => {
    const ticket = await newTicket();
    expect(await activityOf(ticket.id)).toMatchObject([{ type: 'created', from: null, to: 'new' }]);
  });

  it('changes status and priority, logging each change and bumping updated_at', async () => {
    const ticket = await newTicket();
    clock.advance(60_000);
    const response = await call<Ticket>(emu, 'updateTicket', {
      ticketId: ticket.id,
      body: { status: 'in_progress', priority: 'high' },
    });
    expect(response.body).toMatchObject({
      status: 'in_progress',
      priority: 'high',
      updated_at: '2025-03-03T09:01:00.000Z',
    });
    expect((await activityOf(ticket.id)).slice(1)).toMatchObject([
      {
        type: 'status_changed',
        from: 'new',
        to: 'in_progress',
        actor: 'api',
        created_at: '2025-03-03T09:01:00.000Z',
      },
      { type: 'priority_changed', from: 'medium', to: 'high', actor: 'api' },
    ]);
  });

  it('records a change as the employee actor_email names, and never stores actor_email', async () => {
    const ticket = await newTicket();
    const response = await call<Ticket>(emu, 'updateTicket', {
      ticketId: ticket.id,
      body: { status: 'resolved', actor_email: 'Ana.Lima@acme.example' },
    });
    expect(response.body.status).toBe('resolved');
    expect(response.body).not.toHaveProperty('actor_email');
    expect((await activityOf(ticket.id)).at(-1)).toMatchObject({
      type: 'status_changed',
      to: 'resolved',
      actor: 'ana.lima@acme.example',
    });
  });

  it('assigns an agent and unassigns with null', async () => {
    const ticket = await newTicket();
    const assigned = await call<Ticket>(emu, 'updateTicket', {
      ticketId: ticket.id,
      body: { assignee_email: SAM },
    });
    const unassigned = await call<Ticket>(emu, 'updateTicket', {
      ticketId: ticket.id,
      body: { assignee_email: null },
    });
    expect(assigned.body.assignee_email).toBe(SAM);
    expect(unassigned.body.assignee_email).toBeNull();
    expect((await activityOf(ticket.id)).slice(1)).toMatchObject([
      { type: 'assigned', from: null, to: SAM },
      { type: 'assigned', from: SAM, to: null },
    ]);
  });

  it('refuses an assignee who is not an agent with a 422 at body.assignee_email', async () => {
    const ticket = await newTicket();
    const response = await call<ValidationBody>(emu, 'updateTicket', {
      ticketId: ticket.id,
      body: { assignee_email: 'ana.lima@acme.example' },
    });
    expect(response.status).toBe(422);
    expect(response.body.detail[0]?.loc).toEqual(['body', 'assignee_email']);
  });

  it('sets the team and logs it as an assignment', async () => {
    const ticket = await newTicket();
    const response = await call<Ticket>(emu, 'updateTicket', {
      ticketId: ticket.id,
      body: { team: 'Hardware' },
    });
    expect(response.body.team).toBe('Hardware');
    expect((await activityOf(ticket.id)).at(-1)).toMatchObject({
      type: 'assigned',
      field: 'team',
      to: 'Hardware',
    });
  });

  it('leaves updated_at alone when an update changes nothing', async () => {
    const ticket = await newTicket();
    clock.advance(60_000);
    const response = await call<Ticket>(emu, 'updateTicket', {
      ticketId: ticket.id,
      body: { priority: 'medium' },
    });
    expect(response.body.updated_at).toBe(ticket.updated_at);
  });

  it('refuses any change to a closed ticket with 400', async () => {
    const ticket = await newTicket();
    await call(emu, 'updateTicket', { ticketId: ticket.id, body: { status: 'closed' } });
    const reopen = await call<{ detail: string }>(emu, 'updateTicket', {
      ticketId: ticket.id,
      body: { status: 'open' },
    });
    expect(reopen.status).toBe(400);
    expect(emu.model.getTicket('acme', ticket.id).status).toBe('closed');
  });

  it('refuses a new message on a closed ticket with 400', async () => {
    const ticket = await newTicket();
    await call(emu, 'updateTicket', { ticketId: ticket.id, body: { status: 'closed' } });
    const response = await call(emu, 'addMessage', {
      ticketId: ticket.id,
      body: { body: 'hello?' },
    });
    expect(response.status).toBe(400);
  });

  it('finds a ticket by its ID in any case on every ticket operation', async () => {
    const lower = 'it-18';
    const statuses = await Promise.all([
      call(emu, 'getTicket', { ticketId: lower }).then((r) => r.status),
      call(emu, 'listMessages', { ticketId: lower }).then((r) => r.status),
      call(emu, 'listActivity', { ticketId: lower }).then((r) => r.status),
      call(emu, 'updateTicket', { ticketId: lower, body: { priority: 'high' } }).then(
        (r) => r.status,
      ),
      call(emu, 'addMessage', { ticketId: lower, body: { body: 'x' } }).then((r) => r.status),
    ]);
    expect(statuses).toEqual([200, 200, 200, 200, 201]);
  });

  it('serves the dashboard page a ticket links to, with its text escaped', async () => {
    const ticket = await newTicket({ title: '<script>alert(1)</script> & more' });
    const response = await fetch(ticket.url ?? '');
    const html = await response.text();
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; more');
    expect(html).not.toContain('<script>');
  });
});
