import { afterEach, describe, expect, it } from 'vitest';
import type { Message, Ticket } from '../../src/contract/schemas.ts';
import type { RunningEmulator } from '../../tools/emulator/index.ts';
import { IDEMPOTENCY_TTL_MS } from '../../tools/emulator/model.ts';
import { call, emulator, ManualClock } from './support.ts';

const KEY = { 'X-Idempotency-Key': 'op-1' };

describe('emulator idempotency', () => {
  let emu: RunningEmulator;
  afterEach(async () => {
    await emu.close();
  });

  it('answers a repeated create with the first response and creates one ticket', async () => {
    emu = await emulator();
    const first = await call<Ticket>(emu, 'createTicket', {
      headers: KEY,
      body: { title: 'Printer' },
    });
    const again = await call<Ticket>(emu, 'createTicket', {
      headers: KEY,
      body: { title: 'Printer' },
    });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(emu.model.ticketCount('acme')).toBe(19);
  });

  it('counts the same body with another key order and spacing as the same request', async () => {
    emu = await emulator();
    await call(emu, 'createTicket', { headers: KEY, rawBody: '{"title":"A","priority":"low"}' });
    const again = await call(emu, 'createTicket', {
      headers: KEY,
      rawBody: '{ "priority": "low", "title": "A" }',
    });
    expect(again.status).toBe(201);
    expect(emu.model.ticketCount('acme')).toBe(19);
  });

  it('answers 400 when the key comes back with a different body', async () => {
    emu = await emulator();
    await call(emu, 'createTicket', { headers: KEY, body: { title: 'Printer' } });
    const other = await call<{ detail: string }>(emu, 'createTicket', {
      headers: KEY,
      body: { title: 'Scanner' },
    });
    expect(other.status).toBe(400);
    expect(typeof other.body.detail).toBe('string');
    expect(emu.model.ticketCount('acme')).toBe(19);
  });

  it('creates one ticket for many concurrent identical requests', async () => {
    emu = await emulator();
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        call<Ticket>(emu, 'createTicket', { headers: KEY, body: { title: 'Race' } }),
      ),
    );
    expect(new Set(responses.map((response) => response.body.id)).size).toBe(1);
    expect(emu.model.ticketCount('acme')).toBe(19);
  });

  it('adds one message for a repeated add-message request', async () => {
    emu = await emulator();
    const send = () =>
      call<Message>(emu, 'addMessage', {
        ticketId: 'IT-18',
        headers: KEY,
        body: { body: 'Any news?' },
      });
    const first = await send();
    const again = await send();
    expect(again.body).toEqual(first.body);
    expect(emu.model.listMessages('acme', 'IT-18')).toHaveLength(1);
  });

  it('keeps keys per tenant, so another tenant may use the same key', async () => {
    emu = await emulator();
    await call(emu, 'createTicket', { headers: KEY, body: { title: 'Acme' } });
    const globex = await call(emu, 'createTicket', {
      key: 'sd_globex_rw',
      headers: KEY,
      body: { title: 'Globex' },
    });
    expect(globex.status).toBe(201);
  });

  it('forgets a key after 24 hours', async () => {
    const clock = new ManualClock(Date.UTC(2025, 0, 6, 9));
    emu = await emulator({ now: clock.now, ratePerHour: 10_000 });
    await call(emu, 'createTicket', { headers: KEY, body: { title: 'Once' } });
    clock.advance(IDEMPOTENCY_TTL_MS + 1);
    const later = await call(emu, 'createTicket', { headers: KEY, body: { title: 'Once' } });
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(emu.model.ticketCount('acme')).toBe(20);
  });

  it('creates a ticket per request when no key is sent', async () => {
    emu = await emulator();
    await call(emu, 'createTicket', { body: { title: 'Twice' } });
    await call(emu, 'createTicket', { body: { title: 'Twice' } });
    expect(emu.model.ticketCount('acme')).toBe(20);
  });
});
