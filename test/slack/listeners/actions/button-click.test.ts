import type { BlockAction } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { refusedEarly } from '../../../../src/slack/listeners/actions/button-click.ts';
import { TicketStatusMemo } from '../../../../src/slack/tickets/ticket-status-memo.ts';
import { MemoryClaimStore } from '../../../../src/store/memory-claims.ts';
import { fakeDeps } from '../../support/fake-deps.ts';

const people: Record<string, { email: string; agent: boolean }> = {
  U0ALICE: { email: 'alice@acme.example', agent: false },
  U0BOB: { email: 'bob@acme.example', agent: false },
  U0AGENT: { email: 'sam.rivera@acme.example', agent: true },
};

function depsTelling(told: unknown[], known: boolean) {
  const statuses = new TicketStatusMemo();
  if (known)
    statuses.remember({ id: 'IT-9', status: 'open', requester_email: 'alice@acme.example' });
  return fakeDeps({
    statuses,
    stores: { claims: new MemoryClaimStore(Date.now) },
    mirror: { lastRead: async () => undefined },
    people: {
      person: async (id: string) => ({ id, name: id, email: people[id]?.email, isBot: false }),
      isAgent: async (id: string) => people[id]?.agent ?? false,
    },
    client: {
      chat: {
        postEphemeral: async (args: unknown) => {
          told.push(args);
          return { ok: true };
        },
      },
    },
  });
}

const click = (userId: string) =>
  ({
    user: { id: userId },
    channel: { id: 'C0ITHELP' },
    container: { type: 'message', channel_id: 'C0ITHELP', message_ts: '1.1' },
    actions: [{ action_id: 'mark_resolved', value: 'IT-9' }],
  }) as unknown as BlockAction;

describe('early refusal of requester buttons', () => {
  it('refuses someone who is neither requester nor agent, privately, when the requester is known', async () => {
    const told: unknown[] = [];
    expect(await refusedEarly(depsTelling(told, true), click('U0BOB'), 'IT-9')).toBe(true);
    expect(JSON.stringify(told)).toContain('You can’t change');
  });

  it('lets the requester and agents through', async () => {
    const told: unknown[] = [];
    const deps = depsTelling(told, true);
    expect(await refusedEarly(deps, click('U0ALICE'), 'IT-9')).toBe(false);
    expect(await refusedEarly(deps, click('U0AGENT'), 'IT-9')).toBe(false);
    expect(told).toEqual([]);
  });

  it('leaves the decision to the intent when the requester is not known yet', async () => {
    const told: unknown[] = [];
    expect(await refusedEarly(depsTelling(told, false), click('U0BOB'), 'IT-9')).toBe(false);
    expect(told).toEqual([]);
  });
});
