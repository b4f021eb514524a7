import { describe, expect, it } from 'vitest';
import {
  createPlatform,
  EmulatorNotFoundError,
  EmulatorValidationError,
} from '../../tools/emulator/index.ts';
import { call, emulator, ManualClock, ManualScheduler } from './support.ts';

describe('emulator model helpers', () => {
  it('counts every request under the key it presented, whatever the outcome', async () => {
    const emu = await emulator();
    try {
      await call(emu, 'listDesks', { key: 'sd_acme_rw' });
      await call(emu, 'createTicket', { key: 'sd_acme_ro', body: { title: 'x' } });
      await call(emu, 'listDesks', { key: null });
      expect(emu.model.requestCount('sd_acme_rw')).toBe(1);
      expect(emu.model.requestCount('sd_acme_ro')).toBe(1);
      expect(emu.model.requestCount()).toBe(3);
    } finally {
      await emu.close();
    }
  });

  it('finds nothing, rather than throwing, for an unknown ticket', () => {
    const { model } = createPlatform({ tenants: ['acme'] });
    expect(model.findTicket('acme', 'IT-999')).toBeUndefined();
    expect(() => model.getTicket('acme', 'IT-999')).toThrow(EmulatorNotFoundError);
  });

  it('refuses an agent reply from someone who is not an agent', () => {
    const { model } = createPlatform({ tenants: ['acme'] });
    const reply = { agentEmail: 'ana.lima@acme.example', body: 'hi' };
    expect(() => model.addAgentReply('acme', 'IT-18', reply)).toThrow(EmulatorValidationError);
  });

  it('runs the AI agent on a simulated clock and scheduler without HTTP', () => {
    const clock = new ManualClock(Date.UTC(2025, 5, 2, 8));
    const scheduler = new ManualScheduler();
    const { model } = createPlatform({ tenants: ['acme'], now: clock.now, scheduler });
    const ticket = model.createTicket('acme', { title: 'Forgot my password' });
    clock.advance(1500);
    scheduler.runAll();
    const reply = model.listMessages('acme', ticket.id).at(-1);
    expect(reply?.author.type).toBe('ai_agent');
    expect(reply?.created_at).toBe('2025-06-02T08:00:01.500Z');
  });
});
