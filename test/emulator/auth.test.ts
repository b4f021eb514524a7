import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  EmulatorConfigError,
  parseKeys,
  type RunningEmulator,
} from '../../tools/emulator/index.ts';
import { call, emulator } from './support.ts';

describe('emulator authentication', () => {
  let emu: RunningEmulator;
  beforeEach(async () => {
    emu = await emulator();
  });
  afterEach(async () => {
    await emu.close();
  });

  it('accepts the AccessKey scheme with a Read + Write key', async () => {
    const response = await call(emu, 'listTickets', { key: 'sd_acme_rw' });
    expect(response.status).toBe(200);
  });

  it('answers 401 with a string detail when the Authorization header is missing', async () => {
    const response = await call<{ detail: unknown }>(emu, 'listTickets', { key: null });
    expect(response.status).toBe(401);
    expect(typeof response.body.detail).toBe('string');
    expect(response.headers.get('www-authenticate')).toBe('AccessKey');
  });

  it('answers 401 for an unknown key without echoing it', async () => {
    const response = await call(emu, 'listTickets', { key: 'sd_not_a_key' });
    expect(response.status).toBe(401);
    expect(JSON.stringify(response.body)).not.toContain('sd_not_a_key');
  });

  it('answers 401 for a valid key sent with the Bearer scheme', async () => {
    const response = await call(emu, 'listTickets', {
      key: null,
      headers: { Authorization: 'Bearer sd_acme_rw' },
    });
    expect(response.status).toBe(401);
  });

  it('lets a Read key read', async () => {
    const response = await call(emu, 'getTicket', { key: 'sd_acme_ro', ticketId: 'IT-1' });
    expect(response.status).toBe(200);
  });

  it('answers 403 to a Read key on every write', async () => {
    const create = await call(emu, 'createTicket', { key: 'sd_acme_ro', body: { title: 'x' } });
    const update = await call(emu, 'updateTicket', {
      key: 'sd_acme_ro',
      ticketId: 'IT-18',
      body: { priority: 'high' },
    });
    const message = await call(emu, 'addMessage', {
      key: 'sd_acme_ro',
      ticketId: 'IT-18',
      body: { body: 'hi' },
    });
    expect([create.status, update.status, message.status]).toEqual([403, 403, 403]);
    expect(emu.model.ticketCount('acme')).toBe(18);
  });

  it('takes its keys from EMULATOR_KEYS instead of the demo keys', async () => {
    const custom = await emulator({ env: { EMULATOR_KEYS: 'initech:rw:sd_initech_1' } });
    try {
      const own = await call(custom, 'listDesks', { key: 'sd_initech_1' });
      const demo = await call(custom, 'listDesks', { key: 'sd_acme_rw' });
      expect(own.status).toBe(200);
      expect(demo.status).toBe(401);
    } finally {
      await custom.close();
    }
  });
});

describe('EMULATOR_KEYS parsing', () => {
  it('reads tenant, role and key of every entry', () => {
    expect(parseKeys('acme:rw:k_one, acme:ro:k_two')).toEqual([
      { tenant: 'acme', role: 'rw', key: 'k_one' },
      { tenant: 'acme', role: 'ro', key: 'k_two' },
    ]);
  });

  it('refuses a malformed entry with a message that names it by position, not by content', () => {
    const attempt = () => parseKeys('acme:rw:k_one,acme:admin:super_secret_value');
    expect(attempt).toThrow(EmulatorConfigError);
    expect(attempt).toThrow(/entry 2/);
    expect(attempt).not.toThrow(/super_secret_value/);
  });

  it('refuses an entry without three parts', () => {
    expect(() => parseKeys('acme-sd_acme_rw')).toThrow(/tenant:rw\|ro:key/);
  });
});
