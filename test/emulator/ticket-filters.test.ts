/**
 * List tickets' `assignee_email` (exact, any case; empty: unassigned) and comma-separated
 * `status`, the `ticketFilters` capability; without it, both are ignored.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Envelope, Ticket } from '../../src/contract/schemas.ts';
import type { RunningEmulator } from '../../tools/emulator/index.ts';
import { call, emulator, type ValidationBody } from './support.ts';

const SAM = 'sam.rivera@acme.example';
const ANA = 'ana.lima@acme.example';

describe('emulator assignee_email and status filters', () => {
  let emu: RunningEmulator | undefined;
  afterEach(async () => {
    await emu?.close();
    emu = undefined;
  });

  // Only the tickets a test creates are listed (created after the demo data's).
  let since = '';

  /** Three new tickets: one Sam's, one Sam's resolved, one nobody's. */
  async function threeTickets(running: RunningEmulator) {
    since = new Date(Date.now() - 1_000).toISOString();
    const ids: string[] = [];
    for (const title of ['Mine', 'Mine, resolved', 'Nobody’s']) {
      const created = await call<Ticket>(running, 'createTicket', {
        body: { title, requester_email: ANA, desk_id: 'it' },
      });
      ids.push(created.body.id);
    }
    const [mine, resolved] = ids as [string, string, string];
    for (const id of [mine, resolved]) {
      await call(running, 'updateTicket', { ticketId: id, body: { assignee_email: SAM } });
    }
    await call(running, 'updateTicket', { ticketId: resolved, body: { status: 'resolved' } });
    return ids as [string, string, string];
  }

  async function list(running: RunningEmulator, query: Record<string, string>) {
    const response = await call<Envelope<Ticket>>(running, 'listTickets', {
      query: { desk_id: 'it', page_size: '100', created_after: since, ...query },
    });
    expect(response.status).toBe(200);
    return response.body;
  }

  it('lists the tickets assigned to an email, whatever its case', async () => {
    emu = await emulator();
    const [mine, resolved] = await threeTickets(emu);
    const page = await list(emu, { assignee_email: 'Sam.Rivera@ACME.example' });
    expect(page.items.map((t) => t.id)).toEqual([mine, resolved]);
    expect(page.total_count).toBe(2);
  });

  it('lists unassigned tickets for an empty assignee_email', async () => {
    emu = await emulator();
    const [, , nobodys] = await threeTickets(emu);
    const page = await list(emu, { assignee_email: '' });
    expect(page.items.map((t) => t.id)).toEqual([nobodys]);
  });

  it('lists tickets in any of several comma-separated statuses, with the assignee', async () => {
    emu = await emulator();
    const [mine] = await threeTickets(emu);
    const page = await list(emu, { assignee_email: SAM, status: 'new,open,in_progress' });
    expect(page.items.map((t) => t.id)).toEqual([mine]);
    expect(page.total_count).toBe(1);
  });

  it('refuses a status list naming an unknown status with 422 at status', async () => {
    emu = await emulator();
    const response = await call<ValidationBody>(emu, 'listTickets', {
      query: { status: 'open,lost' },
    });
    expect(response.status).toBe(422);
    expect(response.body.detail[0]?.loc).toEqual(['query', 'status']);
  });

  it('ignores both filters without the capability, as a platform without them does', async () => {
    emu = await emulator({ capabilities: { ticketFilters: false } });
    const ids = await threeTickets(emu);
    const page = await list(emu, { assignee_email: '', status: 'new,open' });
    expect(page.items.map((t) => t.id)).toEqual(ids);
  });
});
