/** The send-to-requester intent: public messages by agents from triage (Slack by nock). */
import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AddMessageInput } from '../../../src/contract/schemas.ts';
import { type CallOptions, hashIdempotencyKey } from '../../../src/servicedesk/index.ts';
import { createBackgroundClient } from '../../../src/slack/app/slack-clients.ts';
import {
  type SendToRequesterPayload,
  sendToRequester,
} from '../../../src/slack/intents/send-to-requester.ts';
import { intentHandler } from '../../../src/slack/outbox/intent-definition.ts';
import { messageWith } from '../../support/ticket-fixture.ts';
import { fakeDeps, silentLogger } from '../support/fake-deps.ts';
import { reservedEntry } from '../support/reserved-entry.ts';

const SLACK = 'http://slack.test';
const KEY = 'view:V1';

function depsFor(options: { agent: boolean; status?: string }) {
  const recorded = {
    added: [] as { ticketId: string; input: AddMessageInput; opts: CallOptions | undefined }[],
    marks: [] as string[],
  };
  const deps = fakeDeps({
    client: createBackgroundClient('xoxb-test', silentLogger(), `${SLACK}/api/`),
    serviceDesk: {
      async addMessage(ticketId, input, opts) {
        recorded.added.push({ ticketId, input, opts });
        return messageWith(ticketId, input, { id: 'm-2' });
      },
    },
    people: { isAgent: async () => options.agent, email: async () => 'agent@acme.example' },
    statuses: {
      get: () =>
        options.status
          ? { status: options.status, requesterEmail: 'r@acme.example', at: Date.now() }
          : undefined,
    },
    mirror: {
      // Nothing read of the ticket yet: only the memo's status, when given, is known.
      lastRead: async () => undefined,
      slackWrote: async () => {
        recorded.marks.push('wrote');
      },
      rememberOwnMessage: async () => {
        recorded.marks.push('own-text');
      },
      rememberOwnMessageId: async () => {
        recorded.marks.push('own-id');
      },
      rememberTriageMessageId: async (_t: string, id: string) => {
        recorded.marks.push(`triage:${id}`);
      },
    },
  });
  return { deps, recorded };
}

const entryOf = (payload: SendToRequesterPayload) =>
  reservedEntry(sendToRequester, payload, { deliveryKey: KEY });

const fromModal: SendToRequesterPayload = {
  ticketId: 'IT-7',
  userId: 'U0AGENT',
  body: 'Please restart the laptop and tell me if it helps.',
  channel: 'G0AGENTS',
  threadTs: '100.1',
  viewId: 'V1',
};
const fromShortcut: SendToRequesterPayload = {
  ticketId: 'IT-7',
  userId: 'U0AGENT',
  body: 'Please restart the laptop.',
  channel: 'G0AGENTS',
  threadTs: '100.1',
  inTriageThread: true,
};

const form = (body: unknown) => body as Record<string, string>;

describe('a reply to the requester from triage', () => {
  beforeAll(() => {
    nock.disableNetConnect();
  });
  afterEach(() => {
    nock.cleanAll();
  });

  it('is added as a public message by the agent, keyed by its delivery', async () => {
    const { deps, recorded } = depsFor({ agent: true });
    await intentHandler(sendToRequester, deps).run(entryOf(fromModal));
    expect(recorded.added).toEqual([
      {
        ticketId: 'IT-7',
        input: { body: fromModal.body, author_email: 'agent@acme.example', internal: false },
        opts: { idempotencyKey: hashIdempotencyKey(KEY), priority: 'interactive' },
      },
    ]);
  });

  it('from the modal is left for the mirror to bring to every thread, the triage thread included', async () => {
    const { deps, recorded } = depsFor({ agent: true });
    await intentHandler(sendToRequester, deps).run(entryOf(fromModal));
    expect(recorded.marks).toEqual(['wrote']);
  });

  it('from the shortcut tells the mirror it is in the triage thread already, and confirms privately', async () => {
    const { deps, recorded } = depsFor({ agent: true });
    const told: Record<string, string>[] = [];
    nock(SLACK)
      .post('/api/chat.postEphemeral', (body) => {
        told.push(form(body));
        return true;
      })
      .reply(200, { ok: true });
    await intentHandler(sendToRequester, deps).run(entryOf(fromShortcut));
    expect(recorded.marks).toEqual(['triage:m-2', 'wrote']);
    expect(told[0]).toMatchObject({ channel: 'G0AGENTS', user: 'U0AGENT', thread_ts: '100.1' });
    expect(told[0]?.text).toContain('Sent to the requester of *IT-7*');
  });

  it('from the shortcut is still sent when Slack answers its confirmation with a 500 twice', async () => {
    const { deps, recorded } = depsFor({ agent: true });
    nock(SLACK)
      .post('/api/chat.postEphemeral')
      .times(2)
      .reply(500, 'oops')
      .post('/api/conversations.open')
      .times(2)
      .reply(500, 'oops');
    await intentHandler(sendToRequester, deps).run(entryOf(fromShortcut));
    expect(recorded.added).toHaveLength(1);
  });

  it('by someone who is not an agent is refused before anything is written', async () => {
    const { deps, recorded } = depsFor({ agent: false });
    await expect(
      intentHandler(sendToRequester, deps).run(entryOf(fromModal)),
    ).rejects.toMatchObject({ reason: 'agents_only' });
    expect(recorded.added).toEqual([]);
  });

  it('from the shortcut, refused to someone no longer an agent, says what the shortcut is for', async () => {
    const { deps } = depsFor({ agent: false });
    const told: Record<string, string>[] = [];
    nock(SLACK)
      .post('/api/chat.postEphemeral', (body) => {
        told.push(form(body));
        return true;
      })
      .reply(200, { ok: true });
    const error = await intentHandler(sendToRequester, deps)
      .run(entryOf(fromShortcut))
      .catch((refused: unknown) => refused);
    await intentHandler(sendToRequester, deps).failed(entryOf(fromShortcut), error, {
      awaited: false,
    });
    expect(told[0]?.text).toContain(
      '*Send to requester* is for agents answering from a triage thread',
    );
  });

  it('to a ticket known to be closed is refused before anything is written', async () => {
    const { deps, recorded } = depsFor({ agent: true, status: 'closed' });
    await expect(intentHandler(sendToRequester, deps).run(entryOf(fromModal))).rejects.toThrow(
      /closed/i,
    );
    expect(recorded.added).toEqual([]);
  });

  it('that failed while its modal waits is left for the modal to show', async () => {
    const { deps } = depsFor({ agent: true });
    const ephemeral = nock(SLACK).post('/api/chat.postEphemeral').reply(200, { ok: true });
    await intentHandler(sendToRequester, deps).failed(entryOf(fromModal), new Error('boom'), {
      awaited: true,
    });
    expect(ephemeral.isDone()).toBe(false);
  });

  it('that failed after its modal closed is told privately with the agent’s words', async () => {
    const { deps } = depsFor({ agent: true });
    const told: Record<string, string>[] = [];
    nock(SLACK)
      .post('/api/chat.postEphemeral', (body) => {
        told.push(form(body));
        return true;
      })
      .reply(200, { ok: true });
    await intentHandler(sendToRequester, deps).failed(entryOf(fromModal), new Error('boom'), {
      awaited: false,
    });
    expect(told[0]?.text).toContain('reply to the requester of IT-7');
    expect(told[0]?.blocks).toContain('Please restart the laptop and tell me if it helps.');
  });

  it('that failed is told by DM, words kept, when Slack rate-limits the ephemeral', async () => {
    const { deps } = depsFor({ agent: true });
    const dm: Record<string, string>[] = [];
    nock(SLACK)
      .post('/api/chat.postEphemeral')
      .reply(429, { ok: false, error: 'ratelimited' }, { 'retry-after': '2' })
      .post('/api/conversations.open')
      .reply(200, { ok: true, channel: { id: 'D0AGENT' } })
      .post('/api/chat.postMessage', (body) => {
        dm.push(form(body));
        return true;
      })
      .reply(200, { ok: true, channel: 'D0AGENT', ts: '1.1' });
    await intentHandler(sendToRequester, deps).failed(entryOf(fromModal), new Error('boom'), {
      awaited: false,
    });
    expect(dm.at(-1)?.channel).toBe('D0AGENT');
    expect(dm.at(-1)?.blocks).toContain('Please restart the laptop and tell me if it helps.');
  });
});
