/**
 * The platform's push hints, end to end: the emulator sends signed webhooks to the real app
 * over HTTP, the app looks at the ticket through the API, and the mirror posts in Slack. The
 * mirror's own schedule is slowed to once an hour, so only a hint explains a quick post.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { webhookSignature } from '../../src/contract/webhook.ts';
import { AdaptivePlanner, WEBHOOK_PATH } from '../../src/mirror/index.ts';
import { defaultIds } from '../../tools/slack-double/index.ts';
import { eventually } from '../support/eventually.ts';
import { pastOwnWrite } from '../support/past-own-write.ts';
import { type Stack, startStack } from '../support/stack.ts';

const { alice } = defaultIds;
const SAM = 'sam.rivera@acme.example';
const SECRET = 'whsec-e2e-0123456789abcdef';

// Once an hour at most: a post within seconds can only come from a hint.
const hourly = new AdaptivePlanner({
  firstLookMs: 3_600_000,
  minIntervalMs: 3_600_000,
  resolvedIntervalMs: 3_600_000,
});

describe('platform webhooks', () => {
  let stack: Stack;
  afterEach(async () => {
    await stack?.close();
  });

  async function start() {
    stack = await startStack({ webhookSecret: SECRET, mirror: { planner: hourly } });
  }

  async function fileByDm(text: string) {
    const dm = stack.double.workspace.openIm(alice);
    const sent = await stack.driver.userPosts({ userId: alice, channelId: dm, text });
    const ticketId = await eventually(
      () => stack.app.stores.links.ticketForThread(dm, sent.ts),
      5_000,
      'the link',
    );
    return { dm, threadTs: sent.ts, ticketId };
  }

  /** POSTs a delivery to the app as a platform (or a forger) would. */
  async function deliver(body: string, headers: Record<string, string>) {
    const response = await fetch(`http://127.0.0.1:${stack.app.port}${WEBHOOK_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      signal: AbortSignal.timeout(15_000),
    });
    return response.status;
  }

  const signedNow = (body: string, atSec = Math.floor(Date.now() / 1000)) => ({
    'x-servicedesk-timestamp': String(atSec),
    'x-servicedesk-signature': webhookSignature(SECRET, atSec, body),
  });

  /** Waits for a post in the ticket's thread whose text contains `text`. */
  const postInThread = (t: { dm: string; threadTs: string }, text: string, timeoutMs: number) =>
    eventually(
      () =>
        (stack.double.workspace.thread(t.dm, t.threadTs) ?? []).find((m) => m.text?.includes(text)),
      timeoutMs,
      'the reply in the thread',
    );

  const hook = (ticketId: string, id = `whd_${randomUUID()}`) =>
    JSON.stringify({
      id,
      type: 'ticket.message_added',
      ticket_id: ticketId,
      occurred_at: new Date().toISOString(),
    });

  it('brings an agent’s reply into the thread within seconds though the mirror polls hourly', async () => {
    await start();
    const t = await fileByDm('Webhook: laptop battery swells');
    const reply = stack.emulator.model.addAgentReply('acme', t.ticketId, {
      agentEmail: SAM,
      body: 'Please stop using it; a replacement is on the way',
    });
    const started = Date.now();
    await postInThread(t, 'replacement is on the way', 10_000);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(reply.id).toBeTruthy();
  });

  it('brings an agent’s reply whose webhook was lost with the change feed, though the mirror polls hourly', async () => {
    stack = await startStack({
      webhookSecret: SECRET,
      mirror: { planner: hourly },
      changeFeed: { mode: 'auto', periodMs: 300, minPeriodMs: 100 },
    });
    stack.emulator.setWebhooks({ dropRate: 1 });
    const t = await fileByDm('Webhook: lost on the way');
    await pastOwnWrite(stack, t.ticketId);
    stack.emulator.model.addAgentReply('acme', t.ticketId, {
      agentEmail: SAM,
      body: 'Found it in the lost and found',
    });
    await postInThread(t, 'lost and found', 15_000);
    expect(stack.emulator.webhooks.stats().dropped).toBeGreaterThan(0);
    expect(stack.emulator.webhooks.stats().delivered).toBe(0);
  });

  it('refuses a bad signature, a stale timestamp, a replay and a malformed body, asking the platform nothing', async () => {
    await start();
    stack.emulator.setWebhooks({ enabled: false });
    const t = await fileByDm('Webhook: forged hints');
    const before = stack.platformRequests.length;
    const body = hook(t.ticketId);
    const bad = await deliver(body, {
      'x-servicedesk-timestamp': String(Math.floor(Date.now() / 1000)),
      'x-servicedesk-signature': webhookSignature(
        'not-the-secret',
        Math.floor(Date.now() / 1000),
        body,
      ),
    });
    const stale = await deliver(body, signedNow(body, Math.floor(Date.now() / 1000) - 600));
    const bearer = await deliver(body, { authorization: 'Bearer wrong' });
    const unsigned = await deliver(body, {});
    const malformed = await deliver('{"id":', signedNow('{"id":'));
    expect([bad, stale, bearer, unsigned, malformed]).toEqual([401, 401, 401, 401, 400]);
    const first = await deliver(body, signedNow(body));
    const replay = await deliver(body, signedNow(body));
    expect([first, replay]).toEqual([200, 200]);
    // Only the one accepted hint may cost anything: a look a second later.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const spent = stack.platformRequests.slice(before);
    expect(spent.length).toBeGreaterThan(0);
    expect(spent.length).toBeLessThanOrEqual(3);
  });

  it('spends nothing on a hint for a ticket no thread follows', async () => {
    await start();
    stack.emulator.setWebhooks({ enabled: false });
    const before = stack.platformRequests.length;
    const body = hook('IT-99999');
    expect(await deliver(body, signedNow(body))).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(stack.platformRequests.slice(before)).toEqual([]);
  });

  /** Sends `count` hooks, 50 at a time, as a platform's sender with a connection pool does. */
  async function flood(count: number, body: () => string): Promise<number[]> {
    const statuses: number[] = [];
    for (let sent = 0; sent < count; sent += 50) {
      statuses.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(50, count - sent) }, () => {
            const text = body();
            return deliver(text, signedNow(text));
          }),
        )),
      );
    }
    return statuses;
  }

  it('makes a bounded number of requests for a flood of 2,000 hooks on one ticket', {
    timeout: 60_000,
  }, async () => {
    await start();
    stack.emulator.setWebhooks({ enabled: false });
    const t = await fileByDm('Webhook: flood');
    const before = stack.platformRequests.length;
    const started = Date.now();
    const statuses = await flood(2_000, () => hook(t.ticketId));
    expect(statuses.every((status) => status === 200)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const seconds = (Date.now() - started) / 1000;
    // One look per hinted window (at least 5 s apart), each of at most two requests.
    const spent = stack.platformRequests.slice(before).length;
    expect(spent).toBeLessThanOrEqual(2 * (Math.ceil(seconds / 5) + 1));
  });

  it('spends nothing on a flood of 2,000 hooks for tickets no thread follows', {
    timeout: 60_000,
  }, async () => {
    await start();
    stack.emulator.setWebhooks({ enabled: false });
    const before = stack.platformRequests.length;
    let n = 0;
    const statuses = await flood(2_000, () => hook(`IT-${900_000 + n++}`));
    expect(statuses.every((status) => status === 200)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(stack.platformRequests.slice(before)).toEqual([]);
  });

  it('makes one look for a delivery however often it is replayed', async () => {
    await start();
    stack.emulator.setWebhooks({ enabled: false });
    const t = await fileByDm('Webhook: replayed');
    // Past the look after the write, so the replays are all that could ask for one.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const before = stack.platformRequests.length;
    const body = hook(t.ticketId);
    const first = await deliver(body, signedNow(body));
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    const oneLook = stack.platformRequests.slice(before).length;
    // The same delivery again, signed anew each time as a replaying attacker would, after the
    // look's minimum gap: a new delivery would cost another look, a replay none.
    const replays = await Promise.all(
      Array.from({ length: 20 }, () => deliver(body, signedNow(body))),
    );
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect([first, ...new Set(replays)]).toEqual([200, 200]);
    expect(oneLook).toBeGreaterThan(0);
    expect(oneLook).toBeLessThanOrEqual(2);
    expect(stack.platformRequests.slice(before)).toHaveLength(oneLook);
  });

  it('acknowledges /ticket well inside Slack’s 3 seconds while a flood of hooks arrives', {
    timeout: 60_000,
  }, async () => {
    await start();
    stack.emulator.setWebhooks({ enabled: false });
    const t = await fileByDm('Webhook: flood beside people');
    // The hooks go on arriving until every ack is measured: at least 2,000 of them.
    let measuring = true;
    const hooks = (async () => {
      const statuses: number[] = [];
      while (measuring || statuses.length < 2_000)
        statuses.push(...(await flood(50, () => hook(t.ticketId))));
      return statuses;
    })();
    const ackMs: number[] = [];
    while (ackMs.length < 20) {
      const started = performance.now();
      const answer = await stack.driver.slashCommand({
        userId: alice,
        channelId: defaultIds.itHelp,
        text: 'help',
      });
      ackMs.push(performance.now() - started);
      expect(answer.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    measuring = false;
    const statuses = await hooks;
    expect(statuses.length).toBeGreaterThanOrEqual(2_000);
    expect(statuses.every((status) => status === 200)).toBe(true);
    const sorted = [...ackMs].sort((a, b) => a - b);
    const p95 = sorted[Math.ceil(0.95 * sorted.length) - 1] ?? 0;
    // A bound that tells hooks starving the acks (seconds) from a loaded CI machine (119 ms
    // seen beside 190 other test files); the ack's figures are bench:ack's.
    expect(p95).toBeLessThan(1_000);
  });
});
