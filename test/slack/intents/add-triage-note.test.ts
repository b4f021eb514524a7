/** The add-triage-note intent: internal notes by agents; others told privately (Slack by nock). */
import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AddMessageInput } from '../../../src/contract/schemas.ts';
import { type CallOptions, hashIdempotencyKey } from '../../../src/servicedesk/index.ts';
import { createBackgroundClient } from '../../../src/slack/app/slack-clients.ts';
import { AGENTS_ROOM_TEXT } from '../../../src/slack/builders/triage-reply-builder.ts';
import type { TriageThreads } from '../../../src/slack/deps.ts';
import {
  addTriageNote,
  type TriageNotePayload,
} from '../../../src/slack/intents/add-triage-note.ts';
import { intentHandler } from '../../../src/slack/outbox/intent-definition.ts';
import { createMemoryStores } from '../../../src/store/index.ts';
import type { Stores } from '../../../src/store/types.ts';
import { messageWith } from '../../support/ticket-fixture.ts';
import { fakeDeps, silentLogger } from '../support/fake-deps.ts';
import { reservedEntry } from '../support/reserved-entry.ts';

const SLACK = 'http://slack.test';
const KEY = 'event:A1:T1:Ev1';

interface Recorded {
  added: { ticketId: string; input: AddMessageInput; opts: CallOptions | undefined }[];
  own: string[];
}

function depsFor(options: { agent: boolean; triage?: Partial<TriageThreads>; stores?: Stores }) {
  const recorded: Recorded = { added: [], own: [] };
  const deps = fakeDeps({
    client: createBackgroundClient('xoxb-test', silentLogger(), `${SLACK}/api/`),
    serviceDesk: {
      async addMessage(ticketId, input, opts) {
        recorded.added.push({ ticketId, input, opts });
        return messageWith(ticketId, input, { id: 'm-1' });
      },
    },
    people: {
      isAgent: async () => options.agent,
      email: async () => 'agent@acme.example',
    },
    ...(options.stores ? { stores: options.stores } : {}),
    statuses: {
      get: () => ({ status: 'open', requesterEmail: 'agent@acme.example', at: Date.now() }),
    },
    mirror: {
      rememberTriageMessageId: async (_t: string, id: string) => {
        recorded.own.push(`triage-id:${id}`);
      },
      rememberOwnMessage: async () => {
        recorded.own.push('own-text');
      },
      rememberOwnMessageId: async (_t: string, id: string) => {
        recorded.own.push(`own-id:${id}`);
      },
      slackWrote: async () => {},
    },
    triageThreads: { ticketForTriageThread: async () => undefined, ...options.triage },
  });
  return { deps, recorded };
}

const entryOf = (payload: TriageNotePayload) =>
  reservedEntry(addTriageNote, payload, { deliveryKey: KEY });

const reply: TriageNotePayload = {
  ticketId: 'IT-7',
  userId: 'U0AGENT',
  body: 'Looks like the VPN profile again',
  channel: 'G0AGENTS',
  threadTs: '100.1',
  ts: '100.2',
};

const form = (body: unknown) => body as Record<string, string>;

describe('a reply in a triage thread', () => {
  beforeAll(() => {
    nock.disableNetConnect();
  });
  afterEach(() => {
    nock.cleanAll();
  });

  it('is added as an internal note by the agent, keyed by its event', async () => {
    const { deps, recorded } = depsFor({ agent: true });
    await intentHandler(addTriageNote, deps).run(entryOf(reply));
    expect(recorded.added).toEqual([
      {
        ticketId: 'IT-7',
        input: { body: reply.body, author_email: 'agent@acme.example', internal: true },
        opts: { idempotencyKey: hashIdempotencyKey(KEY), priority: 'interactive' },
      },
    ]);
  });

  it('is marked as written in the triage thread by its id, never its text, so the same words can still go to the requester', async () => {
    const { deps, recorded } = depsFor({ agent: true });
    await intentHandler(addTriageNote, deps).run(entryOf(reply));
    expect(recorded.own).toEqual(['triage-id:m-1']);
  });

  it('finds its ticket from the thread’s card when the links did not know the thread', async () => {
    const { deps, recorded } = depsFor({
      agent: true,
      triage: {
        ticketForTriageThread: async (channel, ts) =>
          channel === 'G0AGENTS' && ts === '100.1' ? 'IT-9' : undefined,
      },
    });
    const { ticketId: _t, ...unlinked } = reply;
    await intentHandler(addTriageNote, deps).run(entryOf({ ...unlinked, appUserId: 'U0BOT' }));
    expect(recorded.added[0]?.ticketId).toBe('IT-9');
  });

  it('under an ordinary ticket card whose link was lost goes the ordinary way, as a reply', async () => {
    const stores = createMemoryStores();
    // Linked again by another reply in the thread since this one was queued.
    await stores.links.link('IT-5', { channel: 'G0AGENTS', threadTs: '100.1' });
    const { deps, recorded } = depsFor({ agent: true, stores });
    const { ticketId: _t, ...unlinked } = reply;
    await intentHandler(addTriageNote, deps).run(entryOf({ ...unlinked, appUserId: 'U0BOT' }));
    expect(recorded.added[0]).toMatchObject({
      ticketId: 'IT-5',
      input: { body: reply.body, author_email: 'agent@acme.example' },
    });
    expect(recorded.added[0]?.input.internal).toBeUndefined();
  });

  it('writes nothing when the thread turns out not to be a triage card’s', async () => {
    const { deps, recorded } = depsFor({ agent: true });
    const { ticketId: _t, ...unlinked } = reply;
    const result = await intentHandler(addTriageNote, deps).run(entryOf(unlinked));
    expect(result).toEqual({ ticketId: null });
    expect(recorded.added).toEqual([]);
  });

  it('by someone who is not an agent is refused and writes nothing', async () => {
    const { deps, recorded } = depsFor({ agent: false });
    await expect(intentHandler(addTriageNote, deps).run(entryOf(reply))).rejects.toMatchObject({
      reason: 'agents_only',
    });
    expect(recorded.added).toEqual([]);
  });

  it('by someone who is not an agent is told privately in the thread that it is the agents’ room, with their words', async () => {
    const { deps } = depsFor({ agent: false });
    const handler = intentHandler(addTriageNote, deps);
    const error = await handler.run(entryOf(reply)).catch((e: unknown) => e);
    const told: Record<string, string>[] = [];
    nock(SLACK)
      .post('/api/chat.postEphemeral', (body) => {
        told.push(form(body));
        return true;
      })
      .reply(200, { ok: true });
    await handler.failed(entryOf(reply), error, { awaited: false });
    expect(told[0]).toMatchObject({ channel: 'G0AGENTS', user: 'U0AGENT', thread_ts: '100.1' });
    expect(told[0]?.text).toBe(AGENTS_ROOM_TEXT);
    expect(told[0]?.blocks).toContain('Looks like the VPN profile again');
  });

  it('by a non-agent is told by DM when Slack answers the ephemeral with a 500', async () => {
    const { deps } = depsFor({ agent: false });
    const handler = intentHandler(addTriageNote, deps);
    const error = await handler.run(entryOf(reply)).catch((e: unknown) => e);
    const dm: Record<string, string>[] = [];
    nock(SLACK)
      .post('/api/chat.postEphemeral')
      // The background client tries once more before giving up.
      .times(2)
      .reply(500, 'oops')
      .post('/api/conversations.open')
      .reply(200, { ok: true, channel: { id: 'D0AGENT' } })
      .post('/api/chat.postMessage', (body) => {
        dm.push(form(body));
        return true;
      })
      .reply(200, { ok: true, channel: 'D0AGENT', ts: '1.1' });
    await handler.failed(entryOf(reply), error, { awaited: false });
    expect(dm[0]?.channel).toBe('D0AGENT');
    expect(dm[0]?.text).toBe(AGENTS_ROOM_TEXT);
  });

  it('by a non-agent is told by DM when Slack rate-limits the ephemeral', async () => {
    const { deps } = depsFor({ agent: false });
    const handler = intentHandler(addTriageNote, deps);
    const error = await handler.run(entryOf(reply)).catch((e: unknown) => e);
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
    await handler.failed(entryOf(reply), error, { awaited: false });
    expect(dm[0]?.text).toBe(AGENTS_ROOM_TEXT);
  });

  it('that failed for good is told privately with the agent’s words', async () => {
    const { deps } = depsFor({ agent: true });
    const told: Record<string, string>[] = [];
    nock(SLACK)
      .post('/api/chat.postEphemeral', (body) => {
        told.push(form(body));
        return true;
      })
      .reply(200, { ok: true });
    await intentHandler(addTriageNote, deps).failed(entryOf(reply), new Error('boom'), {
      awaited: false,
    });
    expect(told[0]?.text).toContain('note on IT-7');
    expect(told[0]?.blocks).toContain('Looks like the VPN profile again');
  });
});
