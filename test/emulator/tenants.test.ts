import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { Envelope, Ticket } from '../../src/contract/schemas.ts';
import type { RunningEmulator } from '../../tools/emulator/index.ts';
import { call, callPath, emulator } from './support.ts';

// fetch does not let a caller set Host, so the variant A host checks use node:http.
function statusWithHost(emu: RunningEmulator, host: string, key: string): Promise<number> {
  const url = new URL(`${emu.url}/api/v1/desks/`);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { headers: { Host: host, Authorization: `AccessKey ${key}` } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('emulator tenants', () => {
  let emu: RunningEmulator;
  afterEach(async () => {
    await emu.close();
  });

  it("answers 404 when a tenant asks for another tenant's ticket", async () => {
    emu = await emulator();
    const response = await call(emu, 'getTicket', { key: 'sd_globex_rw', ticketId: 'IT-1' });
    expect(response.status).toBe(404);
  });

  it("lists only the key's own tenant's tickets", async () => {
    emu = await emulator();
    const response = await call<Envelope<Ticket>>(emu, 'listTickets', { key: 'sd_globex_rw' });
    expect(response.body.items.length).toBeGreaterThan(0);
    expect(response.body.items.every((ticket) => ticket.id.startsWith('GX-'))).toBe(true);
  });

  it("refuses a message on another tenant's ticket with 404 and changes nothing", async () => {
    emu = await emulator();
    const response = await call(emu, 'addMessage', {
      key: 'sd_globex_rw',
      ticketId: 'IT-18',
      body: { body: 'hello from globex' },
    });
    expect(response.status).toBe(404);
    expect(emu.model.listMessages('acme', 'IT-18')).toEqual([]);
  });

  it('answers 401 under variant A when the Host names another known tenant', async () => {
    emu = await emulator({ variant: 'a' });
    expect(await statusWithHost(emu, 'globex.localhost', 'sd_acme_rw')).toBe(401);
  });

  it("answers under variant A when the Host names the key's own tenant", async () => {
    emu = await emulator({ variant: 'a' });
    expect(await statusWithHost(emu, 'acme.localhost', 'sd_acme_rw')).toBe(200);
  });

  it('serves the area-prefixed paths under variant B', async () => {
    emu = await emulator({ variant: 'b' });
    const tickets = await callPath(emu, 'GET', '/service-desk/api/v1/tickets/');
    const employees = await callPath(emu, 'GET', '/employees/api/v1/employees/');
    const bare = await callPath(emu, 'GET', '/api/v1/tickets/');
    expect([tickets.status, employees.status, bare.status]).toEqual([200, 200, 404]);
  });

  it('lets the key decide the tenant under variant B and ignores X-Tenant-ID', async () => {
    emu = await emulator({ variant: 'b' });
    const response = await call<Envelope<Ticket>>(emu, 'listTickets', {
      key: 'sd_globex_rw',
      headers: { 'X-Tenant-ID': 'acme' },
    });
    expect(response.status).toBe(200);
    expect(response.body.items.every((ticket) => ticket.id.startsWith('GX-'))).toBe(true);
  });
});
