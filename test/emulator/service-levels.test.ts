import { describe, expect, it } from 'vitest';
import type { Ticket } from '../../src/contract/schemas.ts';
import { createPlatform, type ModelEvent } from '../../tools/emulator/index.ts';
import { call, emulator, ManualClock } from './support.ts';

const START = Date.UTC(2026, 2, 2, 9);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const SAM = 'sam.rivera@acme.example';
const ANA = 'ana.lima@acme.example';
const iso = (ms: number) => new Date(ms).toISOString();

// A platform on a hand-moved clock, the AI agent kept out of the way, its events recorded.
function platform(serviceLevels = true) {
  const clock = new ManualClock(START);
  const { model } = createPlatform({
    tenants: ['acme'],
    seed: 'empty',
    now: clock.now,
    aiDelayMs: 3_600_000,
    capabilities: { serviceLevels },
  });
  model.addEmployee('acme', {
    id: 'e1',
    email: SAM,
    name: 'Sam Rivera',
    department: 'IT',
    role: 'agent',
  });
  model.addEmployee('acme', {
    id: 'e2',
    email: ANA,
    name: 'Ana Lima',
    department: 'Sales',
    role: 'employee',
  });
  const events: ModelEvent[] = [];
  model.onEvent((event) => events.push(event));
  return { model, clock, events };
}

describe('emulator service-level clocks', () => {
  it('sets the due times from the demo policy for the priority, counted from creation', () => {
    const { model } = platform();
    const urgent = model.createTicket('acme', { title: 'Down', priority: 'urgent' });
    const low = model.createTicket('acme', { title: 'Someday', priority: 'low' });
    expect([urgent, low].map((t) => [t.first_response_due_at, t.resolution_due_at])).toEqual([
      [iso(START + 15 * MINUTE), iso(START + 4 * HOUR)],
      [iso(START + DAY), iso(START + 5 * DAY)],
    ]);
    expect([urgent.first_responded_at, urgent.sla_paused]).toEqual([null, false]);
  });

  it('recomputes the due times on a priority change, moves updated_at and says so', () => {
    const { model, clock, events } = platform();
    const ticket = model.createTicket('acme', { title: 'Printer' });
    clock.advance(10 * MINUTE);
    const raised = model.updateTicket('acme', ticket.id, { priority: 'high' });
    expect([raised.first_response_due_at, raised.resolution_due_at, raised.updated_at]).toEqual([
      iso(START + HOUR),
      iso(START + 8 * HOUR),
      iso(START + 10 * MINUTE),
    ]);
    expect(events.at(-1)).toMatchObject({
      type: 'ticket_updated',
      fields: ['priority', 'service_levels'],
    });
  });

  it('records the first public message of an agent, not a note or the requester', () => {
    const { model, clock } = platform();
    const ticket = model.createTicket('acme', { title: 'VPN', requester_email: ANA });
    clock.advance(MINUTE);
    model.addMessage('acme', ticket.id, { body: 'more detail', author_email: ANA });
    model.addMessage('acme', ticket.id, { body: 'note', author_email: SAM, internal: true });
    expect(model.getTicket('acme', ticket.id).first_responded_at).toBeNull();
    clock.advance(MINUTE);
    model.addMessage('acme', ticket.id, { body: 'On it', author_email: SAM });
    clock.advance(MINUTE);
    model.addMessage('acme', ticket.id, { body: 'Fixed?', author_email: SAM });
    expect(model.getTicket('acme', ticket.id).first_responded_at).toBe(iso(START + 2 * MINUTE));
  });

  it("counts the AI agent's public answer as the first response", () => {
    const { model, clock } = platform();
    const ticket = model.createTicket('acme', { title: 'Password' });
    clock.advance(2_000);
    model.addAiMessage('acme', ticket.id, 'Reset it here', []);
    expect(model.getTicket('acme', ticket.id).first_responded_at).toBe(iso(START + 2_000));
  });

  it('pauses while waiting on the requester and moves the due times by the pause on resuming', () => {
    const { model, clock, events } = platform();
    const ticket = model.createTicket('acme', { title: 'Laptop', priority: 'high' });
    clock.advance(10 * MINUTE);
    const waiting = model.updateTicket('acme', ticket.id, { status: 'waiting_on_requester' });
    expect([waiting.sla_paused, waiting.resolution_due_at]).toEqual([true, iso(START + 8 * HOUR)]);
    clock.advance(2 * HOUR);
    const resumed = model.updateTicket('acme', ticket.id, { status: 'in_progress' });
    expect([
      resumed.sla_paused,
      resumed.first_response_due_at,
      resumed.resolution_due_at,
      resumed.updated_at,
    ]).toEqual([
      false,
      iso(START + 3 * HOUR),
      iso(START + 10 * HOUR),
      iso(START + 2 * HOUR + 10 * MINUTE),
    ]);
    expect(events.at(-1)).toMatchObject({ fields: ['status', 'service_levels'] });
  });

  it("resumes when the requester's message reopens a waiting ticket, and says so", () => {
    const { model, clock, events } = platform();
    const ticket = model.createTicket('acme', { title: 'Badge', requester_email: ANA });
    model.updateTicket('acme', ticket.id, { status: 'waiting_on_requester' });
    clock.advance(HOUR);
    model.addMessage('acme', ticket.id, { body: 'Here it is', author_email: ANA });
    const after = model.getTicket('acme', ticket.id);
    expect([after.status, after.sla_paused, after.resolution_due_at]).toEqual([
      'open',
      false,
      iso(START + 3 * DAY + HOUR),
    ]);
    expect(events.at(-1)).toMatchObject({
      type: 'ticket_updated',
      fields: ['status', 'service_levels'],
    });
  });

  it('keeps a met first response where it was when a later pause ends', () => {
    const { model, clock } = platform();
    const ticket = model.createTicket('acme', { title: 'Mouse', priority: 'urgent' });
    clock.advance(5 * MINUTE);
    model.addMessage('acme', ticket.id, { body: 'Which one?', author_email: SAM });
    model.updateTicket('acme', ticket.id, { status: 'waiting_on_requester' });
    clock.advance(HOUR);
    const resumed = model.updateTicket('acme', ticket.id, { status: 'open' });
    expect([resumed.first_response_due_at, resumed.resolution_due_at]).toEqual([
      iso(START + 15 * MINUTE),
      iso(START + 5 * HOUR),
    ]);
  });

  it('leaves the four fields out without the capability, and changes no event', () => {
    const { model, events } = platform(false);
    const ticket = model.createTicket('acme', { title: 'Screen' });
    model.updateTicket('acme', ticket.id, { priority: 'urgent' });
    const shown = model.getTicket('acme', ticket.id);
    for (const key of [
      'first_response_due_at',
      'resolution_due_at',
      'first_responded_at',
      'sla_paused',
    ])
      expect(shown).not.toHaveProperty(key);
    expect(events.at(-1)).toMatchObject({ fields: ['priority'] });
  });

  it('serves the clocks over HTTP on Get a ticket, and none with --no-sla-clocks', async () => {
    const on = await emulator();
    const off = await emulator({ capabilities: { serviceLevels: false } });
    try {
      const read = async (emu: typeof on) => {
        const created = await call<Ticket>(emu, 'createTicket', {
          body: { title: 'Clocks', priority: 'urgent' },
        });
        return (await call<Ticket>(emu, 'getTicket', { ticketId: created.body.id })).body;
      };
      const withClocks = await read(on);
      const without = await read(off);
      expect(
        Date.parse(withClocks.first_response_due_at ?? '') - Date.parse(withClocks.created_at),
      ).toBe(15 * MINUTE);
      expect(without).not.toHaveProperty('first_response_due_at');
      expect(without).not.toHaveProperty('sla_paused');
    } finally {
      await Promise.all([on.close(), off.close()]);
    }
  });
});
