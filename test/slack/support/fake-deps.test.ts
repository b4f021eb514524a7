/** The shared fake deps: what a test gave answers, anything else throws naming itself. */
import { describe, expect, it } from 'vitest';
import { TicketStatusMemo } from '../../../src/slack/tickets/ticket-status-memo.ts';
import { fakeClient, fakeDeps } from './fake-deps.ts';

describe('fake deps', () => {
  it('throw, naming the member, when a test calls a part or method it did not give', async () => {
    const deps = fakeDeps({ people: { isAgent: async () => true } });
    expect(await deps.people.isAgent('U1')).toBe(true);
    expect(() => deps.people.email('U1')).toThrow('deps.people.email is not expected in this test');
    expect(() => deps.stores.claims.claim('k', 1)).toThrow(
      'deps.stores.claims.claim is not expected in this test',
    );
    const client = fakeClient({ chat: { postMessage: async () => ({ ok: true }) } });
    expect(() => client.chat.delete({ channel: 'C1', ts: '1.1' })).toThrow(
      'client.chat.delete is not expected in this test',
    );
  });

  it('hand a class instance over as it is, so its private state still works', () => {
    const statuses = new TicketStatusMemo();
    const deps = fakeDeps({ statuses });
    deps.statuses.setStatus('IT-1', 'closed');
    expect(deps.statuses).toBe(statuses);
    expect(deps.statuses.isClosed('IT-1')).toBe(true);
  });

  it('leave optional parts and settings absent, so code asking for them finds none', () => {
    const deps = fakeDeps({ people: {}, mirror: {}, settings: { reopenWindowMs: 0 } });
    expect(deps.serviceClocks).toBeUndefined();
    expect(deps.people.byEmail).toBeUndefined();
    expect(deps.mirror.messageWritten).toBeUndefined();
    expect(deps.mirror.rememberTriageMessageId).toBeUndefined();
    expect(fakeDeps({ deskFields: undefined }).deskFields).toBeUndefined();
    expect(deps.settings.channelModes).toBeUndefined();
    expect(deps.settings.reopenWindowMs).toBe(0);
    expect(deps.settings.ticketEmoji).toBe('ticket');
  });
});
