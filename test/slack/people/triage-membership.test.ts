/**
 * Desk agents by triage channel membership, against a Slack Web API that answers, and fails, as
 * Slack does (nock), with the in-memory stores.
 */
import { WebClient } from '@slack/web-api';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Desk } from '../../../src/servicedesk/index.ts';
import { TriageMembership } from '../../../src/slack/people/triage-membership.ts';
import type { ChannelPrivacy } from '../../../src/slack/triage/channel-privacy.ts';
import { createMemoryStores } from '../../../src/store/index.ts';

const SLACK = 'https://slack.test';
const BOB = 'U0BOB';
const IT_TRIAGE = 'G0ITTRIAGE';
const HR_TRIAGE = 'G0HRTRIAGE';

async function membership(
  options: { privacy?: Record<string, ChannelPrivacy>; now?: () => number; desks?: Desk[] } = {},
) {
  const stores = createMemoryStores();
  await stores.triageChannels.set('it', IT_TRIAGE);
  await stores.triageChannels.set('hr', HR_TRIAGE);
  const members = new TriageMembership({
    client: new WebClient('xoxb-test', {
      slackApiUrl: `${SLACK}/api/`,
      rejectRateLimitedCalls: true,
      retryConfig: { retries: 0 },
    }),
    stores,
    privacy: { privacy: async (channel) => options.privacy?.[channel] ?? 'private' },
    ttlMs: 60_000,
    ...(options.now ? { now: options.now } : {}),
    ...(options.desks ? { desks: { peek: () => options.desks } } : {}),
  });
  return { members, stores };
}

const membersOf = (channel: string, ids: string[], cursor = '') =>
  nock(SLACK)
    .post('/api/conversations.members', (body) => body.channel === channel)
    .reply(200, { ok: true, members: ids, response_metadata: { next_cursor: cursor } });

describe('triage channel membership', () => {
  beforeAll(() => nock.disableNetConnect());
  afterAll(() => nock.enableNetConnect());
  afterEach(() => {
    expect(nock.pendingMocks()).toEqual([]);
    nock.cleanAll();
  });

  it('makes a member of the private triage channel holding the ticket’s triage thread its agent', async () => {
    const { members, stores } = await membership();
    await stores.links.link('IT-1', { channel: IT_TRIAGE, threadTs: '1.1', triage: true });
    membersOf(IT_TRIAGE, ['U0BOT', BOB]);
    expect(await members.isDeskAgent(BOB, { ticketId: 'IT-1' })).toBe(true);
    expect(await members.isDeskAgent('U0ALICE', { ticketId: 'IT-1' })).toBe(false);
  });

  it('counts the desk’s own triage channel, and the catch-all’s for a ticket on no desk', async () => {
    const { members, stores } = await membership();
    await stores.triageChannels.set('*', 'G0CATCHALL');
    membersOf(HR_TRIAGE, [BOB]);
    membersOf('G0CATCHALL', ['U0CAROL']);
    expect(await members.isDeskAgent(BOB, { ticketId: 'HR-1', deskId: 'hr' })).toBe(true);
    expect(await members.isDeskAgent(BOB, { ticketId: 'IT-2', deskId: null })).toBe(false);
    expect(await members.isDeskAgent('U0CAROL', { ticketId: 'IT-2', deskId: null })).toBe(true);
  });

  it('gives the desks of the private triage channels a person is in, a subdesk with its parent’s', async () => {
    const { members, stores } = await membership({
      privacy: { [HR_TRIAGE]: 'public' },
      desks: [
        { slug: 'it', name: 'IT', parent_slug: null },
        { slug: 'it-hardware', name: 'Hardware', parent_slug: 'it' },
      ],
    });
    await stores.triageChannels.set('*', 'G0CATCHALL');
    membersOf(IT_TRIAGE, [BOB]);
    membersOf(HR_TRIAGE, [BOB]);
    nock(SLACK)
      .post('/api/conversations.members', (body) => body.channel === 'G0CATCHALL')
      .reply(200, { ok: false, error: 'not_in_channel' });
    const desks = await members.deskChannels(BOB);
    // A public triage channel makes nobody an agent; one Slack will not list is left out.
    expect([...desks.channels]).toEqual([IT_TRIAGE]);
    expect(desks.routedTo('it-hardware')).toBe(IT_TRIAGE);
    expect(desks.routedTo('hr')).toBe(HR_TRIAGE);
    expect(desks.routedTo(null)).toBe('G0CATCHALL');
  });

  it('counts the parent desk’s triage channel for a ticket on a subdesk with none of its own', async () => {
    const { members } = await membership({
      desks: [
        { slug: 'it', name: 'IT', parent_slug: null },
        { slug: 'it-hardware', name: 'Hardware', parent_slug: 'it' },
      ],
    });
    membersOf(IT_TRIAGE, [BOB]);
    expect(await members.isDeskAgent(BOB, { ticketId: 'IT-9', deskId: 'it-hardware' })).toBe(true);
  });

  it('never makes a member of another desk’s triage channel an agent of this desk’s ticket', async () => {
    const { members } = await membership();
    membersOf(IT_TRIAGE, ['U0SAM']);
    // Bob is in HR's channel only: HR's channel is no channel of an IT ticket, so is not read.
    expect(
      await members.isDeskAgent(BOB, { ticketId: 'IT-3', deskId: 'it', channel: HR_TRIAGE }),
    ).toBe(false);
  });

  it('counts the channel a click came from only when it is a triage channel', async () => {
    const { members } = await membership();
    membersOf(IT_TRIAGE, [BOB]);
    expect(await members.isDeskAgent(BOB, { ticketId: 'IT-4', channel: IT_TRIAGE })).toBe(true);
    // A channel that triages nothing costs no Slack call and makes no one an agent.
    expect(await members.isDeskAgent(BOB, { ticketId: 'IT-4', channel: 'C0RANDOM' })).toBe(false);
  });

  it('makes no one an agent through a public triage channel', async () => {
    const { members, stores } = await membership({ privacy: { [IT_TRIAGE]: 'public' } });
    await stores.links.link('IT-5', { channel: IT_TRIAGE, threadTs: '5.5', triage: true });
    membersOf(IT_TRIAGE, [BOB]);
    expect(await members.isDeskAgent(BOB, { ticketId: 'IT-5' })).toBe(false);
  });

  it('reads a channel’s members once for its time, every page of them', async () => {
    const { members } = await membership();
    membersOf(IT_TRIAGE, ['U0A'], 'page-2');
    nock(SLACK)
      .post('/api/conversations.members', (body) => body.cursor === 'page-2')
      .reply(200, { ok: true, members: [BOB], response_metadata: { next_cursor: '' } });
    expect([...(await members.members(IT_TRIAGE))]).toEqual(['U0A', BOB]);
    expect(await members.isDeskAgent(BOB, { ticketId: 'IT-6', channel: IT_TRIAGE })).toBe(true);
  });

  it('takes away the right at once when member_left_channel says the person left', async () => {
    const { members } = await membership();
    membersOf(IT_TRIAGE, [BOB]);
    expect(await members.isDeskAgent(BOB, { ticketId: 'IT-7', channel: IT_TRIAGE })).toBe(true);
    members.left(IT_TRIAGE, BOB);
    expect(await members.isDeskAgent(BOB, { ticketId: 'IT-7', channel: IT_TRIAGE })).toBe(false);
  });

  it('gives the right at once when member_joined_channel says the person joined, even during a read', async () => {
    const { members } = await membership();
    nock(SLACK)
      .post('/api/conversations.members')
      .delay(50)
      .reply(200, { ok: true, members: ['U0SAM'], response_metadata: { next_cursor: '' } });
    // The read is under way when the event comes: its answer, without Bob, must not win.
    const reading = members.members(IT_TRIAGE);
    members.joined(IT_TRIAGE, BOB);
    await reading;
    expect(await members.isDeskAgent(BOB, { ticketId: 'IT-8', channel: IT_TRIAGE })).toBe(true);
  });

  it('rejects when Slack answers conversations.members with 429, and asks again next time', async () => {
    const { members } = await membership();
    nock(SLACK)
      .post('/api/conversations.members')
      .reply(429, { ok: false, error: 'ratelimited' }, { 'retry-after': '3' });
    await expect(
      members.isDeskAgent(BOB, { ticketId: 'IT-9', channel: IT_TRIAGE }),
    ).rejects.toMatchObject({ code: 'slack_webapi_rate_limited_error', retryAfter: 3 });
    membersOf(IT_TRIAGE, [BOB]);
    expect(await members.isDeskAgent(BOB, { ticketId: 'IT-9', channel: IT_TRIAGE })).toBe(true);
  });

  it('rejects when Slack answers conversations.members with 500, keeping nothing', async () => {
    const { members } = await membership();
    nock(SLACK).post('/api/conversations.members').reply(500, 'oops');
    await expect(
      members.isDeskAgent(BOB, { ticketId: 'IT-10', channel: IT_TRIAGE }),
    ).rejects.toMatchObject({ code: 'slack_webapi_http_error' });
    membersOf(IT_TRIAGE, []);
    expect(await members.isDeskAgent(BOB, { ticketId: 'IT-10', channel: IT_TRIAGE })).toBe(false);
  });
});
