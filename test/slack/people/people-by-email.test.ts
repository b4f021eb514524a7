/**
 * Slack people by email, against a Slack Web API that answers, and fails, as Slack does (nock).
 */
import { WebClient } from '@slack/web-api';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PeopleByEmail } from '../../../src/slack/people/people-by-email.ts';

const SLACK = 'https://slack.test';
const SAM = 'sam.rivera@acme.example';

function people() {
  return new PeopleByEmail({
    client: new WebClient('xoxb-test', {
      slackApiUrl: `${SLACK}/api/`,
      rejectRateLimitedCalls: true,
      retryConfig: { retries: 0 },
    }),
  });
}

const lookup = () => nock(SLACK).post('/api/users.lookupByEmail', (body) => body.email === SAM);

describe('Slack people by email', () => {
  beforeAll(() => nock.disableNetConnect());
  afterAll(() => nock.enableNetConnect());
  afterEach(() => {
    expect(nock.pendingMocks()).toEqual([]);
    nock.cleanAll();
  });

  it('finds the Slack user with the email, once for many asks', async () => {
    const found = people();
    lookup().reply(200, { ok: true, user: { id: 'U0AGENT', real_name: 'Sam Rivera' } });
    expect(await found.person(SAM)).toEqual({ userId: 'U0AGENT', name: 'Sam Rivera' });
    expect(await found.person('Sam.Rivera@acme.example')).toEqual({
      userId: 'U0AGENT',
      name: 'Sam Rivera',
    });
  });

  it('answers nobody when Slack answers 500, and asks again next time', async () => {
    const found = people();
    lookup().reply(500, { ok: false, error: 'internal_error' });
    expect(await found.person(SAM)).toBeUndefined();
    lookup().reply(200, { ok: true, user: { id: 'U0AGENT', real_name: 'Sam Rivera' } });
    expect(await found.person(SAM)).toEqual({ userId: 'U0AGENT', name: 'Sam Rivera' });
  });

  it('answers nobody when Slack answers 429, and asks again next time', async () => {
    const found = people();
    lookup().reply(429, { ok: false, error: 'ratelimited' }, { 'retry-after': '30' });
    expect(await found.person(SAM)).toBeUndefined();
    lookup().reply(200, { ok: true, user: { id: 'U0AGENT', real_name: 'Sam Rivera' } });
    expect(await found.person(SAM)).toEqual({ userId: 'U0AGENT', name: 'Sam Rivera' });
  });

  it('keeps an email no Slack user has as unknown, without asking again', async () => {
    const found = people();
    lookup().reply(200, { ok: false, error: 'users_not_found' });
    expect(await found.person(SAM)).toBeUndefined();
    expect(await found.person(SAM)).toBeUndefined();
  });
});
