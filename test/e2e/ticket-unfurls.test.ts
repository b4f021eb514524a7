/**
 * Ticket links unfurl: a ticket's dashboard link posted in Slack (link_shared) unfurls through
 * chat.unfurl as the ticket's card for its requester or an agent, else as "a private ticket"
 * without reading the ticket; a storm of links stays within the cap and the sharer's share; and
 * Slack's 429 and 500 on chat.unfurl are met.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ticket } from '../../src/contract/schemas.ts';
import { MAX_UNFURLS_PER_MESSAGE } from '../../src/slack/unfurls/ticket-unfurler.ts';
import { defaultIds } from '../../tools/slack-double/index.ts';
import type { RecordedCall } from '../../tools/slack-double/slack-double-server.ts';
import { eventually } from '../support/eventually.ts';
import { type Stack, startStack, ticketsOf } from '../support/stack.ts';

const { alice, bob, agent, general } = defaultIds;

type Unfurls = Record<string, { blocks: unknown[] }>;

function unfurlsOf(call: RecordedCall): Unfurls {
  const raw = call.args.unfurls;
  return (typeof raw === 'string' ? JSON.parse(raw) : raw) as Unfurls;
}

describe('ticket links unfurl', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ unfurl: true });
  });
  afterAll(async () => {
    await stack.close();
  });

  const reads = () => stack.platformRequests.filter((op) => op === 'getTicket').length;

  function platformTicket(title: string, requester = 'alice@acme.example'): Ticket {
    return stack.emulator.model.createTicket('acme', {
      title,
      description: 'Internal detail: the admin password is in the vault',
      requester_email: requester,
      priority: 'high',
    }) as Ticket;
  }

  /** Posts the text in #general and returns the chat.unfurl call made for that message. */
  async function shareAndUnfurl(userId: string, text: string): Promise<RecordedCall> {
    const posted = await stack.driver.userPosts({ userId, channelId: general, text });
    expect(posted.linkShared?.status).toBe(200);
    return stack.double.waitForCall(
      'chat.unfurl',
      (call) => call.args.ts === posted.ts && call.response.ok === true,
      8_000,
    );
  }

  it('unfurls the requester’s own ticket as its card', async () => {
    const im = stack.double.workspace.openIm(alice);
    await stack.driver.userPosts({ userId: alice, channelId: im, text: 'My monitor flickers' });
    const ticket = await eventually(
      () => ticketsOf(stack, 'alice@acme.example').find((t) => t.title === 'My monitor flickers'),
      5_000,
      'the ticket filed from the DM',
    );
    const url = ticket.url as string;
    const call = await shareAndUnfurl(alice, `Any news on <${url}>?`);
    const card = JSON.stringify(unfurlsOf(call)[url]);
    expect(card).toContain(ticket.id);
    expect(card).toContain('My monitor flickers');
    expect(card).toContain('Open in dashboard');
    const message = stack.double.workspace.message(general, String(call.args.ts));
    expect(JSON.stringify(message?.attachments)).toContain('My monitor flickers');
  });

  it('unfurls someone else’s ticket as a private ticket, without reading it', async () => {
    const ticket = platformTicket('Salary review for Alice');
    const before = reads();
    const call = await shareAndUnfurl(bob, `see ${ticket.url}`);
    const unfurl = JSON.stringify(unfurlsOf(call)[ticket.url as string]);
    expect(unfurl).toContain(`${ticket.id} · a private ticket`);
    expect(unfurl).not.toContain('Salary');
    expect(reads()).toBe(before);
  });

  it('unfurls any ticket for an agent, with no note or custom field, and reads it once for ten channels', async () => {
    const ticket = platformTicket('VPN drops every hour');
    const before = reads();
    const call = await shareAndUnfurl(agent, `<${ticket.url}|this one>`);
    const card = JSON.stringify(unfurlsOf(call)[ticket.url as string]);
    expect(card).toContain('VPN drops every hour');
    expect(card).not.toContain('vault');
    for (let i = 0; i < 9; i++) await shareAndUnfurl(agent, `again ${ticket.url}`);
    expect(reads() - before).toBe(1);
  });

  it('sends the unfurl again once Slack’s Retry-After has passed', async () => {
    const ticket = platformTicket('Printer offline');
    stack.double.failNext('chat.unfurl', 'ratelimited', { retryAfterSec: 1 });
    const call = await shareAndUnfurl(agent, String(ticket.url));
    const calls = stack.double.callsTo('chat.unfurl').filter((c) => c.args.ts === call.args.ts);
    expect(calls.map((c) => c.status)).toEqual([429, 200]);
    expect(calls[1]?.at ?? 0).toBeGreaterThanOrEqual((calls[0]?.at ?? 0) + 1_000);
  });

  it('leaves the links bare when Slack answers 500, and says so in the log', async () => {
    const ticket = platformTicket('Badge reader broken');
    stack.double.failNext('chat.unfurl', 'internal_error', { status: 500, times: 2 });
    const posted = await stack.driver.userPosts({
      userId: agent,
      channelId: general,
      text: String(ticket.url),
    });
    await eventually(
      () => stack.logs.some((line) => line.includes('they stay bare links')),
      8_000,
      'the warning',
    );
    const calls = stack.double.callsTo('chat.unfurl').filter((c) => c.args.ts === posted.ts);
    expect(calls.map((c) => c.status)).toEqual([500, 500]);
    expect(stack.double.workspace.message(general, posted.ts)?.attachments).toBeUndefined();
    expect(stack.logs.some((line) => line.includes('unexpected error'))).toBe(false);
  });
  it(`unfurls at most ${MAX_UNFURLS_PER_MESSAGE} of 50 links in one message, within the sharer’s share`, async () => {
    const tickets = Array.from({ length: 50 }, (_, i) => platformTicket(`Storm ticket ${i}`));
    const before = reads();
    const call = await shareAndUnfurl(agent, tickets.map((t) => t.url).join(' '));
    const unfurled = Object.keys(unfurlsOf(call));
    expect(unfurled.length).toBeGreaterThan(0);
    expect(unfurled.length).toBeLessThanOrEqual(MAX_UNFURLS_PER_MESSAGE);
    // The person's share holds 5 reads at once (some spent above): the rest stay bare links.
    expect(reads() - before).toBeLessThanOrEqual(5);
    expect(
      stack.double.callsTo('chat.unfurl').filter((c) => c.args.ts === call.args.ts),
    ).toHaveLength(1);
  });
});

describe('a storm of ticket links', () => {
  let stack: Stack;
  beforeAll(async () => {
    // The platform's own budget: 100 requests a minute for every replica together.
    stack = await startStack({ unfurl: true, budget: { perMinute: 100, perHour: 1_000 } });
  });
  afterAll(async () => {
    await stack.close();
  });

  it('answers 100 messages of 10 links each within the sharers’ shares and the budget', async () => {
    const tickets = Array.from({ length: 200 }, (_, i) =>
      stack.emulator.model.createTicket('acme', {
        title: `Storm ${i}`,
        requester_email: 'alice@acme.example',
      }),
    );
    const posted: string[] = [];
    for (let m = 0; m < 100; m++) {
      const links = tickets.slice((m % 20) * 10, (m % 20) * 10 + 10).map((t) => t.url);
      const result = await stack.driver.userPosts({
        userId: m % 2 === 0 ? agent : bob,
        channelId: general,
        text: links.join(' '),
      });
      posted.push(result.ts);
    }
    // Bob may see none of them: all 50 of his messages unfurl as private tickets, with no read.
    const bobs = posted.filter((_, m) => m % 2 === 1);
    await eventually(
      () =>
        bobs.every((ts) =>
          stack.double.callsTo('chat.unfurl').some((c) => c.args.ts === ts && c.response.ok),
        ),
      20_000,
      'Bob’s 50 unfurls',
    );
    const reads = stack.platformRequests.filter((op) => op === 'getTicket').length;
    // Sam's share: 5 at once and one more every 6 seconds; the kept reads answer the rest.
    expect(reads).toBeGreaterThan(0);
    expect(reads).toBeLessThanOrEqual(10);
    expect(stack.platformRequests.length).toBeLessThan(100);
  }, 40_000);
});
