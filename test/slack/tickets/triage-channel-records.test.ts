/** Triage channels' records pinned in Slack, against a Web API that answers and fails (nock). */
import nock from 'nock';
import { pino } from 'pino';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createBackgroundClient } from '../../../src/slack/app/slack-clients.ts';
import { TRIAGE_CHANNEL_EVENT_TYPE } from '../../../src/slack/posting/post-metadata.ts';
import { TriageChannelRecords } from '../../../src/slack/tickets/triage-channel-records.ts';

const SLACK = 'http://slack.test';
const APP = 'U0BOT';
const NOW = 1_800_000_000_000;

function records(waits: number[] = []) {
  return new TriageChannelRecords({
    client: createBackgroundClient('xoxb-test', pino({ level: 'silent' }), `${SLACK}/api/`),
    paceMs: 0,
    now: () => NOW,
    sleep: async (ms) => {
      waits.push(ms);
    },
  });
}

const recordMetadata = (desk: string, setAt: number) => ({
  event_type: TRIAGE_CHANNEL_EVENT_TYPE,
  event_payload: { desk, set_at: setAt },
});

const pinned = (ts: string, user = APP) => ({ type: 'message', message: { ts, user, text: 'x' } });

function slackKnowsTheApp() {
  nock(SLACK).post('/api/auth.test').reply(200, { ok: true, user_id: APP });
}

function historyHas(ts: string, metadata: unknown) {
  nock(SLACK)
    .post('/api/conversations.history', (body) => body.latest === ts && body.oldest === ts)
    .reply(200, { ok: true, messages: [{ ts, user: APP, metadata }] });
}

describe('triage channels’ records in Slack', () => {
  beforeAll(() => {
    nock.disableNetConnect();
  });
  afterEach(() => {
    const pending = nock.pendingMocks();
    nock.cleanAll();
    expect(pending).toEqual([]);
  });

  it('posts the record with the desk and when it was set in its metadata, and pins it', async () => {
    let posted: Record<string, string> | undefined;
    nock(SLACK)
      .post('/api/chat.postMessage', (body) => {
        posted = body as Record<string, string>;
        return true;
      })
      .reply(200, { ok: true, ts: '200.1' });
    nock(SLACK)
      .post('/api/pins.add', { channel: 'G0TRIAGE', timestamp: '200.1' })
      .reply(200, { ok: true });
    await records().remember('G0TRIAGE', { desk: 'it', deskName: 'IT Support', setBy: 'U0AGENT' });
    expect(JSON.parse(posted?.metadata ?? '{}')).toEqual(recordMetadata('it', NOW));
    expect(posted?.text).toContain('*IT Support* (`it`), set by <@U0AGENT>');
  });

  it('passes Slack’s failure to post the record on, pinning nothing', async () => {
    nock(SLACK).post('/api/chat.postMessage').times(2).reply(500, 'down');
    await expect(records().remember('G0TRIAGE', { desk: 'it' })).rejects.toMatchObject({
      code: 'slack_webapi_http_error',
    });
  });

  it('reads back the app’s own pinned records of its private channels, their metadata from the history', async () => {
    slackKnowsTheApp();
    nock(SLACK)
      .post('/api/users.conversations', (body) => body.types === 'private_channel')
      .reply(200, {
        ok: true,
        channels: [{ id: 'G0ONE' }, { id: 'G0TWO' }],
        response_metadata: { next_cursor: '' },
      });
    nock(SLACK)
      .post('/api/pins.list', { channel: 'G0ONE' })
      .reply(200, { ok: true, items: [pinned('10.1'), pinned('10.2', 'U0SOMEONE')] });
    historyHas('10.1', recordMetadata('it', 5));
    nock(SLACK)
      .post('/api/pins.list', { channel: 'G0TWO' })
      .reply(200, {
        ok: true,
        items: [
          { type: 'message', message: { ts: '20.1', user: APP, metadata: recordMetadata('*', 7) } },
        ],
      });
    expect(await records().readAll()).toEqual([
      { desk: 'it', channel: 'G0ONE', setAt: 5, ts: '10.1' },
      { desk: '*', channel: 'G0TWO', setAt: 7, ts: '20.1' },
    ]);
  });

  it('waits out Slack’s Retry-After on a 429 and reads on', async () => {
    const waits: number[] = [];
    slackKnowsTheApp();
    nock(SLACK)
      .post('/api/users.conversations')
      .reply(200, { ok: true, channels: [{ id: 'G0ONE' }], response_metadata: {} });
    nock(SLACK).post('/api/pins.list').reply(429, {}, { 'Retry-After': '7' });
    nock(SLACK).post('/api/pins.list').reply(200, { ok: true, items: [] });
    expect(await records(waits).readAll()).toEqual([]);
    expect(waits).toContain(7_000);
  });

  it('passes a 500 from Slack on to its caller, who tries again later', async () => {
    nock(SLACK).post('/api/users.conversations').times(2).reply(500, 'down');
    await expect(records().readAll()).rejects.toMatchObject({ code: 'slack_webapi_http_error' });
  });

  it('unpins only the records of the desks it is asked to forget', async () => {
    slackKnowsTheApp();
    nock(SLACK)
      .post('/api/pins.list', { channel: 'G0ONE' })
      .reply(200, { ok: true, items: [pinned('10.1'), pinned('10.2')] });
    historyHas('10.1', recordMetadata('it', 5));
    historyHas('10.2', recordMetadata('hr', 6));
    nock(SLACK)
      .post('/api/pins.remove', { channel: 'G0ONE', timestamp: '10.2' })
      .reply(200, { ok: true });
    expect(await records().forget('G0ONE', ['hr'])).toEqual(['hr']);
  });

  it('passes Slack’s refusal to unpin on to its caller', async () => {
    slackKnowsTheApp();
    nock(SLACK)
      .post('/api/pins.list')
      .reply(200, { ok: true, items: [pinned('10.1')] });
    historyHas('10.1', recordMetadata('it', 5));
    nock(SLACK).post('/api/pins.remove').reply(200, { ok: false, error: 'no_permission' });
    await expect(records().forget('G0ONE', ['it'])).rejects.toMatchObject({
      data: { error: 'no_permission' },
    });
  });

  it('passes Slack’s failure to pin the posted record on', async () => {
    nock(SLACK).post('/api/chat.postMessage').reply(200, { ok: true, ts: '200.1' });
    nock(SLACK).post('/api/pins.add').times(2).reply(500, 'down');
    await expect(records().remember('G0TRIAGE', { desk: 'it' })).rejects.toMatchObject({
      code: 'slack_webapi_http_error',
    });
  });

  it('waits out a 429 on who the app is, and passes a 500 on reading a record’s metadata on', async () => {
    const waits: number[] = [];
    nock(SLACK).post('/api/auth.test').reply(429, {}, { 'Retry-After': '3' });
    slackKnowsTheApp();
    nock(SLACK)
      .post('/api/pins.list')
      .reply(200, { ok: true, items: [pinned('10.1')] });
    nock(SLACK).post('/api/conversations.history').times(2).reply(500, 'down');
    await expect(records(waits).forget('G0ONE', ['it'])).rejects.toMatchObject({
      code: 'slack_webapi_http_error',
    });
    expect(waits).toContain(3_000);
  });
});
