import { describe, expect, it } from 'vitest';
import type {
  ButtonArgs,
  ButtonDeps,
} from '../../../../src/slack/listeners/actions/button-click.ts';
import { closedReplyNewTicket } from '../../../../src/slack/listeners/actions/closed-reply-new-ticket.ts';
import { createMemoryStores } from '../../../../src/store/index.ts';
import { fakeDeps } from '../../support/fake-deps.ts';

const reply = { ticketId: 'IT-4', channel: 'C1', ts: '2.2', threadTs: '1.1' };

/** Deps whose Slack shows Alice's reply and whose outbox cannot store anything (Redis away). */
function depsWithoutOutbox(): ButtonDeps {
  const stores = createMemoryStores();
  return fakeDeps({
    stores: {
      ...stores,
      outbox: { ...stores.outbox, enqueue: () => Promise.reject(new Error('redis away')) },
    },
    client: {
      conversations: {
        replies: async () => ({
          ok: true,
          messages: [{ ts: '2.2', user: 'U0ALICE', text: 'The VPN fails again today' }],
        }),
      },
      chat: { getPermalink: async () => ({ ok: true, permalink: 'https://acme.slack.com/p2' }) },
    },
  });
}

describe('Open a new ticket on the closed-ticket prompt', () => {
  it('brings the prompt back with the person’s words when their click cannot be kept', async () => {
    const responded: Record<string, unknown>[] = [];
    const args = {
      ack: async () => undefined,
      body: {
        user: { id: 'U0ALICE' },
        response_url: 'https://hooks.slack.test/r/1',
        actions: [{ action_id: 'closed_reply_new_ticket', value: JSON.stringify(reply) }],
      },
      respond: async (message: Record<string, unknown>) => {
        responded.push(message);
      },
    } as unknown as ButtonArgs;
    await expect(closedReplyNewTicket(depsWithoutOutbox(), 'closed')(args)).rejects.toThrow(
      'redis away',
    );
    expect(responded.map((m) => String(m.text))).toEqual([
      expect.stringContaining('Filing your reply'),
      expect.stringContaining('IT-4 is closed'),
    ]);
    expect(JSON.stringify(responded.at(-1))).toContain('The VPN fails again today');
    expect(JSON.stringify(responded.at(-1))).toContain('closed_reply_new_ticket');
  });
});
