/** Slack's Retry-After kept per method and workspace, against a Web API that answers 429 (nock). */
import { Redis } from 'ioredis';
import nock from 'nock';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createBackgroundClient } from '../../../src/slack/app/slack-clients.ts';
import { SlackMethodHolds } from '../../../src/slack/app/slack-method-holds.ts';
import { retryAtOf } from '../../../src/slack/outbox/transient-errors.ts';
import { createMemoryStores } from '../../../src/store/index.ts';
import { createRedisStores } from '../../../src/store/redis-stores.ts';
import type { ClaimStore } from '../../../src/store/types.ts';
import { deleteKeys, REDIS_URL } from '../../support/redis.ts';

const SLACK = 'http://slack.test';
const logger = pino({ level: 'silent' });

/** A clock the test moves by hand. */
function manualClock(start = 1_800_000_000_000) {
  let now = start;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}

function clientWith(holds: SlackMethodHolds) {
  return createBackgroundClient('xoxb-test', logger, `${SLACK}/api/`, { holds });
}

function limitedPost(retryAfterSec: number) {
  return nock(SLACK)
    .post('/api/chat.postMessage')
    .reply(429, { ok: false, error: 'ratelimited' }, { 'Retry-After': String(retryAfterSec) });
}

/** A claim store whose every call fails, as Redis away does; counts its reads. */
function failingClaims() {
  let reads = 0;
  const away = () => Promise.reject(new Error('redis away'));
  const claims: ClaimStore = {
    claim: away,
    complete: away,
    get: () => {
      reads += 1;
      return away();
    },
    release: away,
  };
  return { claims, reads: () => reads };
}

const post = { channel: 'D0BOB', text: 'IT-19 was filed' };

describe('Slack’s Retry-After kept per method', () => {
  beforeAll(() => nock.disableNetConnect());
  afterEach(() => nock.cleanAll());
  afterAll(() => nock.enableNetConnect());

  function holdsOn(claims: ClaimStore, clock = manualClock(), workspace = 'T1') {
    return new SlackMethodHolds({ claims, workspace, now: clock.now });
  }

  it('sends no chat.postMessage inside the Retry-After of a 429 on it, answering as Slack would', async () => {
    const clock = manualClock();
    const client = clientWith(holdsOn(createMemoryStores({ now: clock.now }).claims, clock));
    limitedPost(70);
    await expect(client.chat.postMessage(post)).rejects.toMatchObject({ retryAfter: 70 });
    clock.advance(30_000);
    // No interceptor is left: a request would fail as unmatched, not as a rate limit.
    const held = await client.chat.postMessage(post).catch((e: unknown) => e);
    expect(held).toMatchObject({ code: 'slack_webapi_rate_limited_error', retryAfter: 40 });
    expect(retryAtOf(held, clock.now())).toBe(clock.now() + 40_000);
    expect(nock.isDone()).toBe(true);
  });

  it('lets other methods through while chat.postMessage is held', async () => {
    const clock = manualClock();
    const client = clientWith(holdsOn(createMemoryStores({ now: clock.now }).claims, clock));
    limitedPost(70);
    await client.chat.postMessage(post).catch(() => undefined);
    nock(SLACK)
      .post('/api/chat.postEphemeral')
      .reply(200, { ok: true, message_ts: '1.1' })
      .post('/api/chat.update')
      .reply(200, { ok: true, channel: 'D0BOB', ts: '1.2' });
    await expect(client.chat.postEphemeral({ ...post, user: 'U0BOB' })).resolves.toMatchObject({
      ok: true,
    });
    await expect(client.chat.update({ ...post, ts: '1.2' })).resolves.toMatchObject({ ok: true });
  });

  it('sends chat.postMessage again once the Retry-After has passed', async () => {
    const clock = manualClock();
    const client = clientWith(holdsOn(createMemoryStores({ now: clock.now }).claims, clock));
    limitedPost(70);
    await client.chat.postMessage(post).catch(() => undefined);
    clock.advance(70_001);
    nock(SLACK).post('/api/chat.postMessage').reply(200, { ok: true, channel: 'D0BOB', ts: '2.1' });
    await expect(client.chat.postMessage(post)).resolves.toMatchObject({ ts: '2.1' });
  });

  it('holds the method for every replica sharing the Redis store', async () => {
    const redis = new Redis(REDIS_URL);
    const prefix = `test:holds:${Date.now()}:${Math.random()}:`;
    try {
      const clock = manualClock(Date.now());
      const stores = () => createRedisStores({ redis, prefix, now: clock.now });
      const first = clientWith(holdsOn(stores().claims, clock));
      const second = clientWith(holdsOn(stores().claims, clock));
      limitedPost(70);
      await first.chat.postMessage(post).catch(() => undefined);
      await expect(second.chat.postMessage(post)).rejects.toMatchObject({
        code: 'slack_webapi_rate_limited_error',
        retryAfter: 70,
      });
      expect(nock.isDone()).toBe(true);
    } finally {
      await deleteKeys(redis, prefix);
      redis.disconnect();
    }
  });

  it('does not hold another workspace’s chat.postMessage', async () => {
    const clock = manualClock();
    const claims = createMemoryStores({ now: clock.now }).claims;
    const limited = clientWith(holdsOn(claims, clock, 'T1'));
    const other = clientWith(holdsOn(claims, clock, 'T2'));
    limitedPost(70);
    await limited.chat.postMessage(post).catch(() => undefined);
    nock(SLACK).post('/api/chat.postMessage').reply(200, { ok: true, channel: 'D0BOB', ts: '3.1' });
    await expect(other.chat.postMessage(post)).resolves.toMatchObject({ ts: '3.1' });
  });

  it('still calls Slack when the store cannot say whether the method is held', async () => {
    const client = clientWith(holdsOn(failingClaims().claims));
    nock(SLACK).post('/api/chat.postMessage').reply(200, { ok: true, channel: 'D0BOB', ts: '4.1' });
    await expect(client.chat.postMessage(post)).resolves.toMatchObject({ ts: '4.1' });
  });

  it('does not ask a store that just failed again before every Slack call', async () => {
    const failing = failingClaims();
    const client = clientWith(holdsOn(failing.claims));
    nock(SLACK).post('/api/chat.postMessage').times(2).reply(200, { ok: true, ts: '4.2' });
    await client.chat.postMessage(post);
    await client.chat.postMessage(post);
    expect(failing.reads()).toBe(1);
  });
});
