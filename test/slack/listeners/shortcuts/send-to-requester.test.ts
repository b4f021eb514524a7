/** The Send to requester message shortcut: who may send what, and how they are told (nock). */
import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createBackgroundClient } from '../../../../src/slack/app/slack-clients.ts';
import { sendToRequester } from '../../../../src/slack/intents/send-to-requester.ts';
import {
  sendKey,
  sendToRequesterShortcut,
} from '../../../../src/slack/listeners/shortcuts/send-to-requester.ts';
import { createMemoryStores } from '../../../../src/store/index.ts';
import { collectedTasks, fakeDeps, silentLogger } from '../../support/fake-deps.ts';

const SLACK = 'http://slack.test';
const HOOKS = 'http://hooks.test';
const TRIAGE = 'G0AGENTS';
const CARD_TS = '100.1';

function run(
  options: { agent?: boolean; author?: string; threadTs?: string | null; text?: string },
  stores = createMemoryStores(),
) {
  const { tasks, running } = collectedTasks();
  const deps = fakeDeps({
    client: createBackgroundClient('xoxb-test', silentLogger(), `${SLACK}/api/`),
    people: { isAgent: async () => options.agent ?? true },
    stores,
    tasks,
    triageThreads: {
      ticketForTriageThread: async (channel: string, ts: string) =>
        channel === TRIAGE && ts === CARD_TS ? 'IT-7' : undefined,
    },
  });
  const threadTs = options.threadTs === null ? undefined : (options.threadTs ?? CARD_TS);
  const shortcut = {
    user: { id: 'U0AGENT' },
    channel: { id: TRIAGE },
    action_ts: '200.5',
    response_url: `${HOOKS}/r1`,
    message: {
      ts: '100.3',
      user: options.author ?? 'U0AGENT',
      text: options.text ?? 'The new profile is live',
      ...(threadTs ? { thread_ts: threadTs } : {}),
    },
  };
  const done = sendToRequesterShortcut(deps)({
    shortcut,
    ack: async () => {},
    context: { botUserId: 'U0BOT' },
  } as never);
  return { stores, settled: done.then(() => Promise.all(running)) };
}

/** What the response_url was asked to show, recorded. */
function hookTold(): Record<string, unknown>[] {
  const told: Record<string, unknown>[] = [];
  nock(HOOKS)
    .post('/r1', (body) => {
      told.push(body as Record<string, unknown>);
      return true;
    })
    .reply(200, 'ok');
  return told;
}

describe('Send to requester', () => {
  beforeAll(() => {
    nock.disableNetConnect();
  });
  afterEach(() => {
    nock.cleanAll();
  });

  it('queues the agent’s own message in a triage thread as a public message, marked as in that thread', async () => {
    const { stores, settled } = run({});
    await settled;
    const entry = await stores.outbox.reserve('w', 60_000);
    expect(entry).toMatchObject({
      kind: sendToRequester.kind,
      deliveryKey: sendKey(TRIAGE, '100.3', 'The new profile is live'),
      payload: {
        ticketId: 'IT-7',
        userId: 'U0AGENT',
        body: 'The new profile is live',
        inTriageThread: true,
      },
    });
  });

  it('sends the same message once however often it is used, and says so', async () => {
    const first = run({});
    await first.settled;
    const told = hookTold();
    await run({}, first.stores).settled;
    expect(JSON.stringify(told[0])).toContain('already sent');
    expect(await first.stores.outbox.reserve('w', 60_000)).toBeDefined();
    expect(await first.stores.outbox.reserve('w', 60_000)).toBeUndefined();
  });

  it('sends an edited message again: its key is the message and its words', () => {
    expect(sendKey(TRIAGE, '100.3', 'edited words')).not.toBe(
      sendKey(TRIAGE, '100.3', 'The new profile is live'),
    );
  });

  it('refuses someone else’s message privately and queues nothing', async () => {
    const told = hookTold();
    const { stores, settled } = run({ author: 'U0BOB' });
    await settled;
    expect(JSON.stringify(told[0])).toContain('sends only your own message');
    expect(await stores.outbox.reserve('w', 60_000)).toBeUndefined();
  });

  it('refuses a message outside a triage thread privately and queues nothing', async () => {
    const told = hookTold();
    const { stores, settled } = run({ threadTs: '999.9' });
    await settled;
    expect(JSON.stringify(told[0])).toContain('works on your own message in a triage thread');
    expect(await stores.outbox.reserve('w', 60_000)).toBeUndefined();
  });

  it('refuses a top-level message privately', async () => {
    const told = hookTold();
    const { settled } = run({ threadTs: null });
    await settled;
    expect(JSON.stringify(told[0])).toContain('triage thread');
  });

  it('refuses someone who is not an agent privately, saying what it is for, and queues nothing', async () => {
    const told = hookTold();
    const { stores, settled } = run({ agent: false });
    await settled;
    expect(JSON.stringify(told[0])).toContain(
      '*Send to requester* is for agents answering from a triage thread',
    );
    expect(await stores.outbox.reserve('w', 60_000)).toBeUndefined();
  });

  it('refuses by DM when the response_url fails and Slack rate-limits the ephemeral', async () => {
    const dm: Record<string, string>[] = [];
    nock(HOOKS).post('/r1').reply(500, 'oops');
    nock(SLACK)
      .post('/api/chat.postEphemeral')
      .reply(429, { ok: false, error: 'ratelimited' }, { 'retry-after': '2' })
      .post('/api/conversations.open')
      .reply(200, { ok: true, channel: { id: 'D0AGENT' } })
      .post('/api/chat.postMessage', (body) => {
        dm.push(body as Record<string, string>);
        return true;
      })
      .reply(200, { ok: true, channel: 'D0AGENT', ts: '1.1' });
    const { settled } = run({ author: 'U0BOB' });
    await settled;
    expect(dm.at(-1)?.channel).toBe('D0AGENT');
    expect(dm.at(-1)?.text).toContain('sends only your own message');
  });
});
