import { WebClient } from '@slack/web-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Message } from '../../src/servicedesk/schemas.ts';
import { SlackMirrorPoster } from '../../src/slack/mirror-poster.ts';
import { defaultIds, type SlackDouble, startSlackDouble } from '../../src/slack-double/index.ts';

const ids = defaultIds;

const answer: Message = {
  id: 'msg_9',
  ticket_id: 'IT-12',
  body: 'Restart the dock.',
  created_at: '2026-11-20T09:30:00Z',
  internal: false,
  author: { type: 'ai_agent', name: 'AI Agent', email: null },
  sources: [{ title: 'Docks', url: 'https://kb.acme.example/docks' }],
};

describe('Slack mirror poster', () => {
  let double: SlackDouble;
  let poster: SlackMirrorPoster;
  let statuses: [string, string][];
  let thread: { channel: string; threadTs: string };

  beforeEach(async () => {
    double = await startSlackDouble();
    const client = new WebClient(ids.botToken, {
      slackApiUrl: double.apiUrl,
      retryConfig: { retries: 0 },
    });
    statuses = [];
    poster = new SlackMirrorPoster({
      client,
      onStatus: (ticketId, status) => void statuses.push([ticketId, status]),
    });
    const parent = double.workspace.postMessage(ids.itHelp, {
      user: ids.alice,
      text: 'Dock broken',
    });
    thread = { channel: ids.itHelp, threadTs: parent.ts };
  });

  afterEach(async () => {
    await double.close();
  });

  it('posts a ticket message in the thread with metadata naming the ticket and the message', async () => {
    expect(await poster.postMessage(thread, 'IT-12', answer)).toBe('posted');
    const reply = double.workspace.thread(thread.channel, thread.threadTs)?.at(-1);
    expect(reply).toMatchObject({
      thread_ts: thread.threadTs,
      text: 'AI Agent (AI): Restart the dock.',
      metadata: {
        event_type: 'servicedesk_ticket',
        event_payload: { ticket_id: 'IT-12', message_id: 'msg_9' },
      },
    });
  });

  it('reports a thread the app can no longer post in as gone', async () => {
    const gone = { channel: ids.general, threadTs: '1700000000.000100' };
    expect(await poster.postMessage(gone, 'IT-12', answer)).toBe('gone');
  });

  it('posts a change as one line and passes the status on', async () => {
    const outcome = await poster.postChange(thread, {
      ticketId: 'IT-12',
      activity: {
        id: 'act_4',
        ticket_id: 'IT-12',
        type: 'status_changed',
        from: 'open',
        to: 'resolved',
        actor: 'ai_agent',
        created_at: '2026-11-20T09:31:00Z',
      },
    });
    expect(outcome).toBe('posted');
    const reply = double.workspace.thread(thread.channel, thread.threadTs)?.at(-1);
    expect(reply?.text).toContain('Resolved');
    expect(reply?.metadata?.event_payload).toEqual({ ticket_id: 'IT-12', message_id: 'act_4' });
    expect(statuses).toEqual([['IT-12', 'resolved']]);
  });

  const statusChange = (id: string, actor: string) => ({
    ticketId: 'IT-12',
    activity: {
      id,
      ticket_id: 'IT-12',
      type: 'status_changed',
      from: 'open',
      to: 'waiting_on_requester',
      actor,
      created_at: '2026-11-20T09:31:00Z',
    },
  });
  const lastReply = () => double.workspace.thread(thread.channel, thread.threadTs)?.at(-1);

  it('names the person who made a change as Slack names them, not by their email', async () => {
    await poster.postChange(thread, statusChange('act_5', 'Sam.Rivera@acme.example'));
    expect(lastReply()?.text).toMatch(/ by Sam Rivera$/);
    expect(lastReply()?.text).not.toContain('@acme.example');
  });

  it('names a person Slack does not know by their email', async () => {
    await poster.postChange(thread, statusChange('act_5', 'contractor@elsewhere.example'));
    expect(lastReply()?.text).toMatch(/ by contractor@elsewhere\.example$/);
  });

  it('asks Slack for a person’s name once for the many changes they make', async () => {
    await poster.postChange(thread, statusChange('act_5', 'sam.rivera@acme.example'));
    await poster.postChange(thread, statusChange('act_6', 'sam.rivera@acme.example'));
    await poster.postChange(thread, statusChange('act_7', 'nobody@elsewhere.example'));
    await poster.postChange(thread, statusChange('act_8', 'nobody@elsewhere.example'));
    expect(double.callsTo('users.lookupByEmail')).toHaveLength(2);
  });

  it('finds an earlier post of an item in the thread, and no other', async () => {
    await poster.postMessage(thread, 'IT-12', answer);
    expect(await poster.findPosted(thread, 'IT-12', 'msg_9')).toBe(true);
    expect(await poster.findPosted(thread, 'IT-12', 'msg_10')).toBe(false);
    expect(await poster.findPosted(thread, 'IT-13', 'msg_9')).toBe(false);
  });

  it('tells the requester directly, found by email, with metadata', async () => {
    const outcome = await poster.notifyRequester({
      ticketId: 'IT-12',
      activityId: 'act_4',
      status: 'resolved',
      requesterEmail: 'alice@acme.example',
      ticket: { id: 'IT-12', title: 'Dock broken' },
    });
    expect(outcome).toBe('posted');
    const dm = double.workspace.openIm(ids.alice);
    const notice = double.workspace.history(dm).at(-1);
    expect(notice?.text).toContain('*IT-12* · Dock broken was resolved');
    expect(notice?.metadata?.event_payload).toEqual({ ticket_id: 'IT-12', message_id: 'act_4' });
  });

  it('reports a requester Slack does not know as gone', async () => {
    const outcome = await poster.notifyRequester({
      ticketId: 'IT-12',
      activityId: 'act_4',
      status: 'closed',
      requesterEmail: 'nobody@elsewhere.example',
      ticket: undefined,
    });
    expect(outcome).toBe('gone');
  });
});
