/** `/ticket channel` against a Slack Web API that answers, and fails, as Slack does (nock). */
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Desk } from '../../../../src/contract/schemas.ts';
import {
  type ChannelModeDeps,
  channelModeAsked,
  channelModeCommand,
  isChannelModeCommand,
} from '../../../../src/slack/listeners/commands/channel-mode-command.ts';
import { createMemoryStores, type Stores } from '../../../../src/store/index.ts';
import {
  collectedTasks,
  fakeDeps,
  fakeRespond,
  interactiveTestClient,
  SLACK_TEST_URL,
} from '../../support/fake-deps.ts';

const SLACK = SLACK_TEST_URL;
const AGENT = 'U0AGENT';
const CHANNEL = 'C0LAPTOP';
const DESKS: Desk[] = [{ slug: 'it', name: 'IT Support', parent_slug: null }];

interface Harness {
  deps: ChannelModeDeps;
  stores: Stores;
  answers: string[];
  acks: number;
  /** Runs the command and waits for its answer. */
  run(text: string, userId?: string, channelId?: string): Promise<string>;
}

function harness(
  options: {
    channelDesks?: Map<string, string>;
    channelModes?: Map<string, 'auto' | 'off'>;
    listDesks?: () => Promise<Desk[]>;
  } = {},
): Harness {
  const stores = createMemoryStores();
  const answers: string[] = [];
  const { tasks, running } = collectedTasks();
  const deps = fakeDeps({
    client: interactiveTestClient(),
    desks: { peek: () => DESKS, list: options.listDesks ?? (async () => DESKS) },
    people: { isAgent: async (userId: string) => userId === AGENT },
    settings: {
      ticketEmoji: 'ticket',
      channelDesks: options.channelDesks ?? new Map([[CHANNEL, 'it']]),
      channelModes: options.channelModes ?? new Map(),
      dashboardUrl: undefined,
      submitWaitMs: 0,
    },
    stores,
    tasks,
  });
  const respond = fakeRespond((message) => {
    expect(message.response_type).toBe('ephemeral');
    answers.push(message.text ?? '');
  });
  const h: Harness = {
    deps,
    stores,
    answers,
    acks: 0,
    async run(text, userId = AGENT, channelId = CHANNEL) {
      const command = { text, user_id: userId, channel_id: channelId };
      const ack = async () => {
        h.acks += 1;
      };
      await channelModeCommand(deps, { command, ack, respond } as never);
      await Promise.allSettled(running);
      return answers.at(-1) ?? '';
    },
  };
  return h;
}

const channelInfo = (channel: Record<string, unknown>) =>
  nock(SLACK)
    .post('/api/conversations.info')
    .reply(200, { ok: true, channel: { id: CHANNEL, ...channel } });

describe('/ticket channel', () => {
  beforeAll(() => nock.disableNetConnect());
  afterAll(() => nock.enableNetConnect());
  afterEach(() => {
    expect(nock.pendingMocks()).toEqual([]);
    nock.cleanAll();
  });

  it('is the command for channel modes and only for them', () => {
    expect(isChannelModeCommand('channel auto')).toBe(true);
    expect(isChannelModeCommand('Channel')).toBe(true);
    expect(isChannelModeCommand('channels are broken')).toBe(false);
    expect(isChannelModeCommand('my channel is slow')).toBe(false);
  });

  it('reads auto (or on), off and nothing, and knows no other word', () => {
    expect(channelModeAsked('channel auto')).toBe('auto');
    expect(channelModeAsked('channel ON')).toBe('auto');
    expect(channelModeAsked('channel off')).toBe('off');
    expect(channelModeAsked('channel')).toBe('status');
    expect(channelModeAsked('channel maybe')).toBeUndefined();
  });

  it('makes a channel the app is in a request channel and names its desk', async () => {
    const h = harness();
    channelInfo({ is_member: true });
    const answer = await h.run('channel auto');
    expect(h.acks).toBe(1);
    expect(answer).toContain(
      'Every new message here now becomes a ticket on the *IT Support* desk',
    );
    expect(await h.stores.channelModes.get(CHANNEL)).toBe('auto');
  });

  it('says the service desk picks the desk of a channel routed nowhere', async () => {
    const h = harness({ channelDesks: new Map() });
    channelInfo({ is_member: true });
    expect(await h.run('channel auto')).toContain('the service desk picks its desk');
  });

  it('warns that a channel routed to a desk the platform does not have will file nothing', async () => {
    const h = harness({ channelDesks: new Map([[CHANNEL, 'laptops']]) });
    channelInfo({ is_member: true });
    const answer = await h.run('channel auto');
    expect(answer).toContain('routed to desk `laptops`');
    expect(answer).toContain('will not be filed');
  });

  it('names the desk by its slug when the platform cannot list desks', async () => {
    const h = harness({
      listDesks: async () => {
        throw new Error('platform down');
      },
    });
    channelInfo({ is_member: true });
    expect(await h.run('channel auto')).toContain('a ticket on the *it* desk');
    expect(await h.stores.channelModes.get(CHANNEL)).toBe('auto');
  });

  it('turns a channel off, even one the app has left, without asking Slack', async () => {
    const h = harness();
    await h.stores.channelModes.set(CHANNEL, 'auto');
    expect(await h.run('channel off')).toContain('New messages here no longer become tickets');
    expect(await h.stores.channelModes.get(CHANNEL)).toBe('off');
  });

  it('refuses a person who is not an agent and changes nothing', async () => {
    const h = harness();
    expect(await h.run('channel auto', 'U0ALICE')).toContain('Only service-desk agents');
    expect(await h.stores.channelModes.get(CHANNEL)).toBeUndefined();
  });

  it('asks to be invited into a channel the app is not in, and changes nothing', async () => {
    const h = harness();
    channelInfo({ is_member: false });
    expect(await h.run('channel auto')).toContain('Invite me with `/invite @Service Desk`');
    expect(await h.stores.channelModes.get(CHANNEL)).toBeUndefined();
  });

  it('sends a direct message’s writer to a channel', async () => {
    const h = harness();
    expect(await h.run('channel auto', AGENT, 'D0AGENT')).toContain(
      'Run `/ticket channel` in a channel',
    );
    expect(await h.stores.channelModes.get('D0AGENT')).toBeUndefined();
  });

  it('explains the words it knows when given others', async () => {
    const h = harness();
    expect(await h.run('channel sometimes')).toContain('`/ticket channel auto` makes every');
  });

  it('says which mode stands and where it comes from', async () => {
    const h = harness({ channelModes: new Map([[CHANNEL, 'auto']]) });
    expect(await h.run('channel')).toContain('(the app’s default for this channel)');
    await h.stores.channelModes.set(CHANNEL, 'off');
    expect(await h.run('channel')).toContain(
      'New messages here do not become tickets (set with `/ticket channel`)',
    );
  });

  it('tells the agent nothing changed when Slack rate-limits the membership check', async () => {
    const h = harness();
    nock(SLACK)
      .post('/api/conversations.info')
      .reply(429, { ok: false, error: 'ratelimited' }, { 'retry-after': '0' });
    expect(await h.run('channel auto')).toContain('nothing changed here');
    expect(await h.stores.channelModes.get(CHANNEL)).toBeUndefined();
  });

  it('tells the agent nothing changed when Slack answers 500 to the membership check', async () => {
    const h = harness();
    nock(SLACK).post('/api/conversations.info').reply(500, 'oops');
    expect(await h.run('channel auto')).toContain('nothing changed here');
    expect(await h.stores.channelModes.get(CHANNEL)).toBeUndefined();
  });
});
