/** Whether a triage channel is private, against a Slack Web API that answers, and fails, as Slack does (nock). */
import { WebClient } from '@slack/web-api';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TriageChannelPrivacy } from '../../../src/slack/triage/channel-privacy.ts';

const SLACK = 'https://slack.test';

function privacy(now: () => number = Date.now) {
  return new TriageChannelPrivacy({
    client: new WebClient('xoxb-test', {
      slackApiUrl: `${SLACK}/api/`,
      rejectRateLimitedCalls: true,
      retryConfig: { retries: 0 },
    }),
    ttlMs: 60_000,
    now,
  });
}

const info = (channel: Record<string, unknown>) =>
  nock(SLACK)
    .post('/api/conversations.info')
    .reply(200, { ok: true, channel: { id: 'C0TRIAGE', ...channel } });

describe('triage channel privacy', () => {
  beforeAll(() => nock.disableNetConnect());
  afterAll(() => nock.enableNetConnect());
  afterEach(() => {
    expect(nock.pendingMocks()).toEqual([]);
    nock.cleanAll();
  });

  it('is private only when Slack says the channel is private and the app is in it', async () => {
    info({ is_private: true, is_member: true });
    expect(await privacy().privacy('C0TRIAGE')).toBe('private');
  });

  it('is public when Slack does not say private, whether or not the app is in it', async () => {
    info({ is_private: false, is_member: true });
    info({ is_member: false });
    expect(await privacy().privacy('C0TRIAGE')).toBe('public');
    expect(await privacy().privacy('C0TRIAGE')).toBe('public');
  });

  it('is absent for a private channel Slack does not show the app, or one archived', async () => {
    nock(SLACK)
      .post('/api/conversations.info')
      .reply(200, { ok: false, error: 'channel_not_found' });
    info({ is_private: true, is_member: true, is_archived: true });
    expect(await privacy().privacy('G0SECRET')).toBe('absent');
    expect(await privacy().privacy('C0TRIAGE')).toBe('absent');
  });

  it('keeps an answer for its time, then asks Slack again', async () => {
    let now = 0;
    const channels = privacy(() => now);
    info({ is_private: true, is_member: true });
    expect(await channels.privacy('C0TRIAGE')).toBe('private');
    now = 59_000;
    expect(await channels.privacy('C0TRIAGE')).toBe('private');
    // Made public since: seen once the kept answer is a minute old.
    info({ is_private: false, is_member: true });
    now = 60_000;
    expect(await channels.privacy('C0TRIAGE')).toBe('public');
  });

  it('rejects when Slack answers 429, keeps nothing, and asks again next time', async () => {
    const channels = privacy();
    nock(SLACK)
      .post('/api/conversations.info')
      .reply(429, { ok: false, error: 'ratelimited' }, { 'retry-after': '7' });
    await expect(channels.privacy('C0TRIAGE')).rejects.toMatchObject({
      code: 'slack_webapi_rate_limited_error',
      retryAfter: 7,
    });
    info({ is_private: true, is_member: true });
    expect(await channels.privacy('C0TRIAGE')).toBe('private');
  });

  it('rejects when Slack answers 500, keeping nothing', async () => {
    const channels = privacy();
    nock(SLACK).post('/api/conversations.info').reply(500, 'oops');
    await expect(channels.privacy('C0TRIAGE')).rejects.toMatchObject({
      code: 'slack_webapi_http_error',
    });
    info({ is_private: false });
    expect(await channels.privacy('C0TRIAGE')).toBe('public');
  });
});
