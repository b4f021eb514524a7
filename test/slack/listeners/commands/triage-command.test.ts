/** `/ticket triage` against a Slack Web API that answers, and fails, as Slack does (nock). */
import type { RespondFn } from '@slack/bolt';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Desk } from '../../../../src/contract/schemas.ts';
import { ServiceDeskError } from '../../../../src/servicedesk/errors.ts';
import {
  answerTriage,
  isTriageCommand,
  type TriageCommandDeps,
} from '../../../../src/slack/listeners/commands/triage-command.ts';
import { createMemoryStores, type Stores } from '../../../../src/store/index.ts';
import {
  fakeDeps,
  fakeRespond,
  interactiveTestClient,
  SLACK_TEST_URL,
} from '../../support/fake-deps.ts';

const SLACK = SLACK_TEST_URL;
const AGENT = 'U0AGENT';
const DESKS: Desk[] = [
  { slug: 'it', name: 'IT Support', parent_slug: null },
  { slug: 'hr', name: 'People Team', parent_slug: null },
];

interface Harness {
  deps: TriageCommandDeps;
  stores: Stores;
  answers: string[];
  respond: RespondFn;
  /** The records kept in Slack and unpinned there, as `remember <channel> <desk>` lines. */
  records: string[];
  /** What the mirror was told was set, as `<desk> <channel>` lines. */
  told: string[];
}

// Slack failing a call (internal_error), in the Web API client's own error shape.
const slackFailure = () =>
  Object.assign(new Error('An API error occurred: internal_error'), {
    code: 'slack_webapi_platform_error',
    data: { ok: false, error: 'internal_error' },
  });

function harness(
  options: { listDesks?: () => Promise<Desk[]>; recordsFail?: boolean } = {},
): Harness {
  const stores = createMemoryStores();
  const answers: string[] = [];
  const records: string[] = [];
  const told: string[] = [];
  const triageRecords = {
    async remember(channel: string, record: { desk: string; setBy?: string }) {
      if (options.recordsFail) throw slackFailure();
      records.push(`remember ${channel} ${record.desk} by ${record.setBy}`);
    },
    async forget(channel: string, desks: readonly string[]) {
      if (options.recordsFail) throw slackFailure();
      records.push(`forget ${channel} ${desks.join(',')}`);
      return [...desks];
    },
  };
  const deps = fakeDeps({
    triageRecords,
    client: interactiveTestClient(),
    desks: { peek: () => DESKS, list: options.listDesks ?? (async () => DESKS) },
    people: { isAgent: async (userId: string) => userId === AGENT },
    stores,
    mirror: {
      async triageChannelSet(desk: string, channel: string) {
        told.push(`${desk} ${channel}`);
      },
    },
  });
  const respond = fakeRespond((message) => {
    answers.push(message.text ?? '');
  });
  return { deps, stores, answers, respond, records, told };
}

const channelInfo = (channel: Record<string, unknown>) =>
  nock(SLACK)
    .post('/api/conversations.info')
    .reply(200, { ok: true, channel: { id: 'C0TRIAGE', ...channel } });

async function run(h: Harness, text: string, userId = AGENT, channelId = 'C0TRIAGE') {
  await answerTriage(h.deps, { userId, channelId, text }, h.respond);
  return h.answers.at(-1) ?? '';
}

describe('/ticket triage', () => {
  beforeAll(() => nock.disableNetConnect());
  afterAll(() => nock.enableNetConnect());
  afterEach(() => {
    expect(nock.pendingMocks()).toEqual([]);
    nock.cleanAll();
  });

  it('is the command for triage and only triage', () => {
    expect(isTriageCommand('triage it')).toBe(true);
    expect(isTriageCommand('Triage off')).toBe(true);
    expect(isTriageCommand('triaged printer')).toBe(false);
    expect(isTriageCommand('printer triage')).toBe(false);
  });

  it('makes a private channel the app is in the desk’s triage channel', async () => {
    const h = harness();
    channelInfo({ is_member: true, is_private: true });
    const answer = await run(h, 'triage IT');
    expect(answer).toContain('<#C0TRIAGE> now triages *IT Support* (`it`)');
    expect(answer).not.toContain('public');
    expect(await h.stores.triageChannels.channelFor('it')).toBe('C0TRIAGE');
  });

  it('tells the mirror the moment a desk’s triage went to the channel, so a ticket filed a second later gets its card', async () => {
    const h = harness();
    channelInfo({ is_member: true, is_private: true });
    await run(h, 'triage it');
    channelInfo({ is_member: true, is_private: true });
    await run(h, 'triage it');
    expect(h.told).toEqual(['it C0TRIAGE']);
  });

  it('refuses a public channel, saying why and to run it in a private one, changing nothing', async () => {
    const h = harness();
    channelInfo({ is_member: true, is_private: false });
    const answer = await run(h, 'triage it');
    expect(answer).toContain('<#C0TRIAGE> is public');
    expect(answer).toContain('Use a private channel');
    expect(answer).toContain('run `/ticket triage it` there. Nothing changed.');
    expect(await h.stores.triageChannels.all()).toEqual([]);
  });

  it('refuses a public channel the app is not in as public, not by asking to be invited', async () => {
    const h = harness();
    channelInfo({ is_member: false, is_private: false });
    const answer = await run(h, 'triage unrouted');
    expect(answer).toContain('is public');
    expect(answer).toContain('`/ticket triage unrouted` there');
    expect(await h.stores.triageChannels.all()).toEqual([]);
  });

  it('says which channel the desk left for this one', async () => {
    const h = harness();
    await h.stores.triageChannels.set('it', 'C0OLD');
    channelInfo({ is_member: true, is_private: true });
    expect(await run(h, 'triage it')).toContain('It took over from <#C0OLD>.');
  });

  it('pins the setting’s record in the channel, and unpins the desk’s record where it was', async () => {
    const h = harness();
    await h.stores.triageChannels.set('it', 'C0OLD');
    channelInfo({ is_member: true, is_private: true });
    await run(h, 'triage it');
    expect(h.records).toEqual(['remember C0TRIAGE it by U0AGENT', 'forget C0OLD it']);
  });

  it('pins nothing again for a channel that already triages the desk', async () => {
    const h = harness();
    await h.stores.triageChannels.set('it', 'C0TRIAGE');
    channelInfo({ is_member: true, is_private: true });
    expect(await run(h, 'triage it')).toContain('already triages');
    expect(h.records).toEqual([]);
  });

  it('makes the setting when Slack fails to pin its record, and says it will not survive a lost store', async () => {
    const h = harness({ recordsFail: true });
    channelInfo({ is_member: true, is_private: true });
    const answer = await run(h, 'triage it');
    expect(answer).toContain('now triages');
    expect(answer).toContain('did not let me pin this setting');
    expect(await h.stores.triageChannels.channelFor('it')).toBe('C0TRIAGE');
  });

  it('unpins the channel’s records with off, and says so when Slack fails to', async () => {
    const h = harness();
    await h.stores.triageChannels.set('it', 'C0TRIAGE');
    await run(h, 'triage off');
    expect(h.records).toEqual(['forget C0TRIAGE it']);
    const failing = harness({ recordsFail: true });
    await failing.stores.triageChannels.set('it', 'C0TRIAGE');
    const answer = await run(failing, 'triage off');
    expect(answer).toContain('no longer triages');
    expect(answer).toContain('unpin it by hand');
  });

  it('makes the channel the catch-all with unrouted', async () => {
    const h = harness();
    channelInfo({ is_member: true, is_private: true });
    const answer = await run(h, 'triage unrouted');
    expect(answer).toContain('now triages tickets on no desk');
    expect(await h.stores.triageChannels.channelFor(undefined)).toBe('C0TRIAGE');
    expect(await h.stores.triageChannels.channelFor('hr')).toBe('C0TRIAGE');
  });

  it('refuses a person who is not an agent, privately, changing nothing', async () => {
    const h = harness();
    const answer = await run(h, 'triage it', 'U0ALICE');
    expect(answer).toContain('Only service-desk agents');
    expect(await h.stores.triageChannels.all()).toEqual([]);
  });

  it('lists the desks when the desk is unknown', async () => {
    const h = harness();
    const answer = await run(h, 'triage <!channel>');
    expect(answer).toContain('no desk `&lt;!channel&gt;`');
    expect(answer).toContain('`it` (IT Support), `hr` (People Team)');
    expect(await h.stores.triageChannels.all()).toEqual([]);
  });

  it('asks to be invited to a channel the app is not in, changing nothing', async () => {
    const h = harness();
    channelInfo({ is_member: false, is_private: true });
    expect(await run(h, 'triage it')).toContain('Invite me with `/invite @Service Desk`');
    expect(await h.stores.triageChannels.all()).toEqual([]);
  });

  it('treats a private channel Slack does not show the app as one it is not in', async () => {
    const h = harness();
    nock(SLACK)
      .post('/api/conversations.info')
      .reply(200, { ok: false, error: 'channel_not_found' });
    expect(await run(h, 'triage it', AGENT, 'G0SECRET')).toContain('I am not a member of');
    expect(await h.stores.triageChannels.all()).toEqual([]);
  });

  it('says Slack is busy when it answers 429, changing nothing', async () => {
    const h = harness();
    nock(SLACK)
      .post('/api/conversations.info')
      .reply(429, { ok: false, error: 'ratelimited' }, { 'Retry-After': '30' });
    expect(await run(h, 'triage it')).toContain('Slack is busy');
    expect(await h.stores.triageChannels.all()).toEqual([]);
  });

  it('says Slack did not answer when it fails with 500, changing nothing', async () => {
    const h = harness();
    nock(SLACK).post('/api/conversations.info').times(2).reply(500, 'oops');
    expect(await run(h, 'triage it')).toContain('Slack did not answer');
    expect(await h.stores.triageChannels.all()).toEqual([]);
  });

  it('says the service desk did not list its desks when the platform fails', async () => {
    const h = harness({
      listDesks: async () => {
        throw new ServiceDeskError('servicedesk_connection', 'platform down');
      },
    });
    expect(await run(h, 'triage it')).toContain('did not list its desks');
  });

  it('ends every triage the channel served with off, naming the desks', async () => {
    const h = harness();
    await h.stores.triageChannels.set('it', 'C0TRIAGE');
    await h.stores.triageChannels.set('*', 'C0TRIAGE');
    await h.stores.triageChannels.set('hr', 'C0ELSEWHERE');
    const answer = await run(h, 'triage off');
    expect(answer).toContain('no longer triages the catch-all (tickets on no desk), *IT Support*');
    expect(await h.stores.triageChannels.all()).toEqual([
      { desk: 'hr', channel: 'C0ELSEWHERE', origin: 'slack' },
    ]);
  });

  it('says a channel that triaged nothing is left as it was', async () => {
    expect(await run(harness(), 'triage off')).toContain('was not a triage channel');
  });

  it('explains the subcommand when it has no argument', async () => {
    expect(await run(harness(), 'triage')).toContain('`/ticket triage unrouted`');
  });

  it('refuses a direct message as a triage channel', async () => {
    const h = harness();
    expect(await run(h, 'triage it', AGENT, 'D0AGENT')).toContain('not in a direct message');
    expect(await h.stores.triageChannels.all()).toEqual([]);
  });

  it('rethrows what is not a Slack, platform or store failure', async () => {
    const h = harness({
      listDesks: async () => {
        throw new TypeError('a bug');
      },
    });
    await expect(run(h, 'triage it')).rejects.toThrow('a bug');
  });
});
