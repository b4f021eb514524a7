import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Ticket } from '../../src/contract/schemas.ts';
import type {
  EmulatorOptions,
  RunningEmulator,
  WebhookDelivery,
  WebhookOptions,
} from '../../tools/emulator/index.ts';
import {
  call,
  emulator,
  eventually,
  ManualClock,
  type ReceivedRequest,
  type Receiver,
  type ReceiverAnswer,
  startReceiver,
  TimelineScheduler,
} from './support.ts';

const SECRET = 'whsec_test_0123456789';
const SAM = 'sam.rivera@acme.example';
const ANA = 'ana.lima@acme.example';
const START = Date.UTC(2025, 2, 3, 9);

interface WebhookBody {
  id: string;
  type: string;
  ticket_id: string;
  occurred_at: string;
}

// Verified here with node:crypto, independently of the emulator's own signing code.
function signatureIsValid(request: ReceivedRequest, secret = SECRET): boolean {
  const timestamp = String(request.headers['x-servicedesk-timestamp'] ?? '');
  const header = String(request.headers['x-servicedesk-signature'] ?? '');
  const expected = Buffer.from(
    `v1=${createHmac('sha256', secret).update(`${timestamp}.${request.body}`).digest('hex')}`,
  );
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const bodyOf = (request: ReceivedRequest) => JSON.parse(request.body) as WebhookBody;

describe('emulator outgoing webhooks', () => {
  let emu: RunningEmulator | undefined;
  let receiver: Receiver | undefined;
  afterEach(async () => {
    await emu?.close();
    await receiver?.close();
    emu = undefined;
    receiver = undefined;
  });

  async function start(
    answer: (index: number) => ReceiverAnswer = () => 200,
    webhook: Partial<WebhookOptions> = {},
    options: EmulatorOptions = {},
  ): Promise<{ running: RunningEmulator; hook: Receiver }> {
    const hook = await startReceiver(answer);
    receiver = hook;
    const running = await emulator({
      webhook: { url: hook.url, secret: SECRET, ...webhook },
      ...options,
    });
    emu = running;
    return { running, hook };
  }

  // Retries and timeouts stepped by hand on a manual clock; the receiver is still real HTTP.
  async function startOnTimeline(
    answer: (index: number) => ReceiverAnswer,
    webhook: Partial<WebhookOptions> = {},
  ) {
    const timeline = new TimelineScheduler(new ManualClock(START));
    const started = await start(answer, webhook, { now: timeline.clock.now, scheduler: timeline });
    // Only the webhooks' own tasks on the timeline.
    started.running.agent.stop();
    return { ...started, timeline };
  }

  async function newTicket(running: RunningEmulator, title = 'Printer jams'): Promise<Ticket> {
    const response = await call<Ticket>(running, 'createTicket', {
      body: { title, requester_email: ANA },
    });
    return response.body;
  }

  // Steps the timeline until the first delivery is `done`. An attempt in flight is waited for
  // in real time: until it is answered, or (a hanging receiver) until the request has arrived,
  // after which the next task on the timeline is its timeout.
  async function stepUntil(
    running: RunningEmulator,
    timeline: TimelineScheduler,
    done: (delivery: WebhookDelivery) => boolean,
  ): Promise<WebhookDelivery> {
    const first = () => running.webhooks.deliveries()[0];
    const answered = () => {
      const last = first()?.attempts.at(-1);
      return last === undefined || last.status !== undefined || last.error !== undefined;
    };
    for (let step = 0; step < 50; step += 1) {
      const delivery = first();
      if (delivery && done(delivery)) return delivery;
      if (!answered()) {
        const sent = delivery?.attempts.length ?? 0;
        await eventually(() =>
          answered() || (receiver?.received.length ?? 0) >= sent ? true : undefined,
        );
        // Received: an answer on its way gets a moment of real time to arrive before the clock
        // is stepped past the attempt's timeout (only a hanging receiver needs the step).
        const deadline = Date.now() + 1_000;
        while (!answered() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
        if (!answered()) timeline.runNext();
        continue;
      }
      if (!timeline.runNext()) throw new Error('nothing left on the timeline');
    }
    throw new Error('delivery did not settle within 50 steps');
  }

  it('posts one signed ticket.message_added per message, internal notes included, without the text', async () => {
    const { running, hook } = await start();
    const ticket = await newTicket(running);
    await call(running, 'addMessage', {
      ticketId: ticket.id,
      body: { body: 'My secret printer password is hunter2', author_email: ANA },
    });
    await call(running, 'addMessage', {
      ticketId: ticket.id,
      body: { body: 'Internal: replace the drum', author_email: SAM, internal: true },
    });
    await eventually(() => (hook.received.length >= 2 ? true : undefined));

    const bodies = hook.received.map(bodyOf);
    expect(bodies.map((body) => [body.type, body.ticket_id])).toEqual([
      ['ticket.message_added', ticket.id],
      ['ticket.message_added', ticket.id],
    ]);
    expect(bodies.map((body) => Object.keys(body).sort())).toEqual([
      ['id', 'occurred_at', 'ticket_id', 'type'],
      ['id', 'occurred_at', 'ticket_id', 'type'],
    ]);
    expect(new Set(bodies.map((body) => body.id)).size).toBe(2);
    expect(hook.received.map((request) => signatureIsValid(request))).toEqual([true, true]);
    expect(hook.received.some((request) => /hunter2|drum/.test(request.body))).toBe(false);
  });

  it('stamps each request with the current Unix time in seconds', async () => {
    const { running, hook } = await start();
    const ticket = await newTicket(running);
    const before = Math.floor(Date.now() / 1000);
    await call(running, 'addMessage', { ticketId: ticket.id, body: { body: 'hello' } });
    const request = await eventually(() => hook.received[0]);
    const timestamp = Number(request.headers['x-servicedesk-timestamp']);
    expect(timestamp).toBeGreaterThanOrEqual(before);
    expect(timestamp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
  });

  it('refuses a signature made with another secret', async () => {
    const { running, hook } = await start();
    const ticket = await newTicket(running);
    await call(running, 'addMessage', { ticketId: ticket.id, body: { body: 'hello' } });
    const request = await eventually(() => hook.received[0]);
    expect([signatureIsValid(request), signatureIsValid(request, 'another')]).toEqual([
      true,
      false,
    ]);
  });

  it('posts one ticket.updated per change of status, priority, assignee, team and desk', async () => {
    const { running, hook } = await start();
    const ticket = await newTicket(running);
    for (const change of [
      { status: 'open' },
      { priority: 'high' },
      { assignee_email: SAM },
      { team: 'Hardware' },
    ]) {
      await call(running, 'updateTicket', { ticketId: ticket.id, body: change });
    }
    running.model.setDesk('acme', ticket.id, 'it-hardware');
    await eventually(() => (hook.received.length >= 5 ? true : undefined));
    expect(
      hook.received.map((request) => [bodyOf(request).type, bodyOf(request).ticket_id]),
    ).toEqual(Array.from({ length: 5 }, () => ['ticket.updated', ticket.id]));
  });

  it('posts a single ticket.updated for one update that changes several fields', async () => {
    const { running, hook } = await start();
    const ticket = await newTicket(running);
    await call(running, 'updateTicket', {
      ticketId: ticket.id,
      body: { status: 'open', priority: 'urgent', team: 'Hardware' },
    });
    await call(running, 'addMessage', { ticketId: ticket.id, body: { body: 'marker' } });
    await eventually(() => (hook.received.length >= 2 ? true : undefined));
    expect(hook.received.map((request) => bodyOf(request).type)).toEqual([
      'ticket.updated',
      'ticket.message_added',
    ]);
  });

  it('posts nothing for a ticket being created or an update that changes nothing', async () => {
    const { running, hook } = await start();
    const ticket = await newTicket(running);
    await call(running, 'updateTicket', { ticketId: ticket.id, body: { status: 'new' } });
    await call(running, 'addMessage', { ticketId: ticket.id, body: { body: 'marker' } });
    await eventually(() => hook.received[0]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(hook.received.map((request) => bodyOf(request).type)).toEqual(['ticket.message_added']);
  });

  it("posts a message_added and a ticket.updated when a requester's message reopens a ticket", async () => {
    const { running, hook } = await start();
    const ticket = await newTicket(running);
    await call(running, 'updateTicket', { ticketId: ticket.id, body: { status: 'resolved' } });
    await call(running, 'addMessage', {
      ticketId: ticket.id,
      body: { body: 'Still broken', author_email: ANA },
    });
    await eventually(() => (hook.received.length >= 3 ? true : undefined));
    expect(hook.received.map((request) => bodyOf(request).type)).toEqual([
      'ticket.updated',
      'ticket.message_added',
      'ticket.updated',
    ]);
  });

  it('sends Authorization: Bearer <secret> and no signature in bearer mode', async () => {
    const { running, hook } = await start(() => 200, { bearer: true });
    const ticket = await newTicket(running);
    await call(running, 'addMessage', { ticketId: ticket.id, body: { body: 'hello' } });
    const request = await eventually(() => hook.received[0]);
    expect({
      authorization: request.headers.authorization,
      signature: request.headers['x-servicedesk-signature'],
      timestamp: request.headers['x-servicedesk-timestamp'],
    }).toEqual({ authorization: `Bearer ${SECRET}`, signature: undefined, timestamp: undefined });
  });

  it('sends only the configured tenant’s changes', async () => {
    const { running } = await start(() => 200, { tenant: 'globex' });
    const acme = await newTicket(running);
    const globex = await call<Ticket>(running, 'createTicket', {
      key: 'sd_globex_rw',
      body: { title: 'VPN' },
    });
    await call(running, 'addMessage', { ticketId: acme.id, body: { body: 'a' } });
    await call(running, 'addMessage', {
      key: 'sd_globex_rw',
      ticketId: globex.body.id,
      body: { body: 'g' },
    });
    expect(running.webhooks.deliveries().map((delivery) => delivery.ticketId)).toEqual([
      globex.body.id,
    ]);
  });

  it('retries after a 500 with doubling waits until the receiver answers 2xx, signing each attempt', async () => {
    const { running, hook, timeline } = await startOnTimeline((index) => (index < 2 ? 500 : 204), {
      retryInitialMs: 1_000,
      // The timeline steps simulated time while each real request is in flight: a loaded machine
      // must not turn a slow answer into a timeout.
      timeoutMs: 3_600_000,
    });
    const ticket = await newTicket(running);
    await call(running, 'addMessage', { ticketId: ticket.id, body: { body: 'hello' } });

    const delivery = await stepUntil(running, timeline, (d) => d.state !== 'pending');
    expect(delivery.state).toBe('delivered');
    expect(delivery.attempts.map((attempt) => [attempt.status, attempt.retryInMs])).toEqual([
      [500, 1_000],
      [500, 2_000],
      [204, undefined],
    ]);
    expect(delivery.attempts.map((attempt) => attempt.atMs - START)).toEqual([0, 1_000, 3_000]);
    expect(new Set(hook.received.map((request) => bodyOf(request).id))).toEqual(
      new Set([delivery.id]),
    );
    expect(hook.received.map((request) => signatureIsValid(request))).toEqual([true, true, true]);
  });

  it('retries an attempt the receiver does not answer within timeoutMs', async () => {
    const { running, hook, timeline } = await startOnTimeline(
      (index) => (index === 0 ? 'hang' : 200),
      { timeoutMs: 5_000, retryInitialMs: 1_000 },
    );
    const ticket = await newTicket(running);
    await call(running, 'addMessage', { ticketId: ticket.id, body: { body: 'hello' } });

    const delivery = await stepUntil(running, timeline, (d) => d.state !== 'pending');
    const outcomes = delivery.attempts.map((attempt) => [attempt.error, attempt.status]);
    // The timeline steps simulated time while a real request is in flight, so on a loaded
    // machine a later attempt may time out too; the first one must, and the last succeeds.
    expect(outcomes[0]).toEqual(['timeout', undefined]);
    expect(outcomes.at(-1)).toEqual([undefined, 200]);
    expect(outcomes.slice(1, -1).every(([error]) => error === 'timeout')).toBe(true);
    expect(delivery.attempts[1]?.atMs).toBe(START + 6_000);
    expect(hook.received).toHaveLength(delivery.attempts.length);
  });

  it('caps the wait between attempts at retryMaxMs', async () => {
    const { running, timeline } = await startOnTimeline((index) => (index < 4 ? 503 : 200), {
      retryInitialMs: 1_000,
      retryMaxMs: 3_000,
    });
    const ticket = await newTicket(running);
    await call(running, 'addMessage', { ticketId: ticket.id, body: { body: 'hello' } });

    const delivery = await stepUntil(running, timeline, (d) => d.state !== 'pending');
    expect(delivery.attempts.map((attempt) => attempt.retryInMs)).toEqual([
      1_000,
      2_000,
      3_000,
      3_000,
      undefined,
    ]);
  });

  it('gives a delivery up as failed when its next attempt would come after retryForMs', async () => {
    const { running, timeline } = await startOnTimeline(() => 500, {
      retryInitialMs: 1_000,
      retryForMs: 10_000,
    });
    const ticket = await newTicket(running);
    await call(running, 'addMessage', { ticketId: ticket.id, body: { body: 'hello' } });

    const delivery = await stepUntil(running, timeline, (d) => d.state !== 'pending');
    // Attempts at 0, 1, 3 and 7 s; the next would be at 15 s, past the 10 s allowed.
    expect(delivery.attempts.map((attempt) => attempt.atMs - START)).toEqual([
      0, 1_000, 3_000, 7_000,
    ]);
    expect([delivery.state, running.webhooks.stats().failed, timeline.pending]).toEqual([
      'failed',
      1,
      0,
    ]);
  });

  it('evicts the oldest queued delivery when the queue is full, and counts it', async () => {
    const { running, timeline } = await startOnTimeline(() => 200, { maxQueue: 2 });
    const tickets = [await newTicket(running), await newTicket(running), await newTicket(running)];
    for (const ticket of tickets) {
      await call(running, 'addMessage', { ticketId: ticket.id, body: { body: 'hello' } });
    }
    expect(running.webhooks.deliveries().map((delivery) => delivery.state)).toEqual([
      'overflow',
      'pending',
      'pending',
    ]);
    expect([running.webhooks.stats().overflowed, running.webhooks.stats().pending]).toEqual([1, 2]);
    expect(timeline.pending).toBe(2);
  });

  it('loses dropRate of the deliveries, the same ones at the same seed', async () => {
    async function run(): Promise<{ dropped: string[]; received: string[] }> {
      const { running, hook } = await start(() => 200, { dropRate: 0.5, seed: 42 });
      for (let i = 0; i < 20; i += 1) {
        const ticket = await newTicket(running, `t${i}`);
        await call(running, 'addMessage', { ticketId: ticket.id, body: { body: 'hello' } });
      }
      const records = running.webhooks.deliveries();
      const dropped = records.filter((d) => d.state === 'dropped').map((d) => d.ticketId);
      await eventually(() => (running.webhooks.stats().pending === 0 ? true : undefined));
      const received = hook.received.map((request) => bodyOf(request).ticket_id).sort();
      await running.close();
      await hook.close();
      return { dropped, received };
    }
    const first = await run();
    const second = await run();
    expect(first.dropped.length).toBeGreaterThan(0);
    expect(first.dropped.length).toBeLessThan(20);
    expect(first.received).toHaveLength(20 - first.dropped.length);
    expect(first.received.some((id) => first.dropped.includes(id))).toBe(false);
    expect(second).toEqual(first);
  });

  it('sends a second copy with the same id after the first attempt at duplicateRate 1', async () => {
    const { running, hook } = await start(() => 200, { duplicateRate: 1 });
    const ticket = await newTicket(running);
    await call(running, 'addMessage', { ticketId: ticket.id, body: { body: 'hello' } });
    await eventually(() => (hook.received.length >= 2 ? true : undefined));
    const [first, copy] = hook.received.map(bodyOf);
    expect(copy).toEqual(first);
    expect(hook.received.map((request) => signatureIsValid(request))).toEqual([true, true]);
    expect(running.webhooks.stats().duplicated).toBe(1);
  });

  it('holds deliveries a random time within the reorder window, so later changes can arrive first', async () => {
    const { running, hook } = await start(() => 200, {
      reorder: true,
      reorderWindowMs: 300,
      seed: 7,
    });
    const changed: string[] = [];
    for (let i = 0; i < 8; i += 1) {
      const ticket = await newTicket(running, `t${i}`);
      changed.push(ticket.id);
    }
    for (const id of changed) {
      await call(running, 'addMessage', { ticketId: id, body: { body: 'hello' } });
    }
    await eventually(() => (hook.received.length >= 8 ? true : undefined));
    // Judged by when the sender started each delivery: arrival order alone could also vary
    // with the sockets, which would let this pass without any reordering.
    const firstAttempt = (delivery: WebhookDelivery) => delivery.attempts[0]?.atMs ?? 0;
    const sent = running.webhooks
      .deliveries()
      .sort((a, b) => firstAttempt(a) - firstAttempt(b))
      .map((delivery) => delivery.ticketId);
    const arrived = hook.received.map((request) => bodyOf(request).ticket_id);
    expect([...arrived].sort()).toEqual([...changed].sort());
    expect(sent).not.toEqual(changed);
  });

  it('waits delayMs after a change before the first attempt', async () => {
    const { running, hook } = await start(() => 200, { delayMs: 150 });
    const ticket = await newTicket(running);
    const changedAt = Date.now();
    await call(running, 'addMessage', { ticketId: ticket.id, body: { body: 'hello' } });
    const request = await eventually(() => hook.received[0]);
    expect(request.atMs - changedAt).toBeGreaterThanOrEqual(145);
  });

  it('sends nothing while switched off at run time and sends again once switched on', async () => {
    const { running, hook } = await start();
    const quiet = await newTicket(running, 'quiet');
    const loud = await newTicket(running, 'loud');
    running.setWebhooks({ enabled: false });
    await call(running, 'addMessage', { ticketId: quiet.id, body: { body: 'hello' } });
    running.setWebhooks({ enabled: true });
    await call(running, 'addMessage', { ticketId: loud.id, body: { body: 'hello' } });
    await eventually(() => hook.received[0]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(hook.received.map((request) => bodyOf(request).ticket_id)).toEqual([loud.id]);
  });

  it('abandons deliveries waiting for a retry when switched off', async () => {
    const { running, timeline } = await startOnTimeline(() => 500);
    const ticket = await newTicket(running);
    await call(running, 'addMessage', { ticketId: ticket.id, body: { body: 'hello' } });
    await stepUntil(running, timeline, (d) => d.attempts[0]?.status === 500);
    running.setWebhooks({ enabled: false });
    expect([running.webhooks.deliveries()[0]?.state, timeline.pending]).toEqual(['abandoned', 0]);
  });

  it('delivers to a URL set at run time on an emulator started without webhooks', async () => {
    const hook = await startReceiver();
    receiver = hook;
    const running = await emulator();
    emu = running;
    const ticket = await newTicket(running);
    await call(running, 'addMessage', { ticketId: ticket.id, body: { body: 'before' } });
    running.setWebhooks({ url: hook.url, secret: SECRET });
    await call(running, 'addMessage', { ticketId: ticket.id, body: { body: 'after' } });
    const request = await eventually(() => hook.received[0]);
    expect([bodyOf(request).ticket_id, signatureIsValid(request)]).toEqual([ticket.id, true]);
    expect(running.webhooks.deliveries()).toHaveLength(1);
  });

  it('answers the API promptly while the receiver never answers', async () => {
    const { running, hook } = await start(() => 'hang', { timeoutMs: 60_000 });
    const ticket = await newTicket(running);
    const started = performance.now();
    for (let i = 0; i < 10; i += 1) {
      const response = await call(running, 'addMessage', {
        ticketId: ticket.id,
        body: { body: `m${i}` },
      });
      expect(response.status).toBe(201);
    }
    const elapsed = performance.now() - started;
    await eventually(() => (hook.received.length >= 10 ? true : undefined));
    expect(elapsed).toBeLessThan(2_000);
    expect(running.webhooks.stats().pending).toBe(10);
  });

  it('keeps answering the API when the receiver refuses connections', async () => {
    const hook = await startReceiver();
    const url = hook.url;
    await hook.close();
    const running = await emulator({ webhook: { url, secret: SECRET, retryInitialMs: 60_000 } });
    emu = running;
    const ticket = await newTicket(running);
    const response = await call(running, 'addMessage', {
      ticketId: ticket.id,
      body: { body: 'hello' },
    });
    const attempt = await eventually(() => running.webhooks.deliveries()[0]?.attempts[0]?.error);
    expect([response.status, attempt]).toEqual([201, 'network']);
  });

  it('refuses settings out of range at run time', async () => {
    const { running } = await start();
    expect(() => running.setWebhooks({ dropRate: 1.5 })).toThrow(/dropRate/);
    expect(() => running.setWebhooks({ url: 'ftp://example.invalid/' })).toThrow(/url/);
  });
});
