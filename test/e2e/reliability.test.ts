/** No duplicates, nothing lost: retries, double clicks, replicas, outages, restarts, refusals. */
import { afterEach, describe, expect, it } from 'vitest';
import { defaultIds } from '../../src/slack-double/index.ts';
import { eventually, modalOpenedBy, type Stack, startStack, ticketsOf } from './harness.ts';

const { alice, bob, itHelp } = defaultIds;

describe('reliability', () => {
  let stack: Stack;
  afterEach(async () => {
    await stack.close();
  });

  const openModal = (userId: string) =>
    modalOpenedBy(stack, userId, () => stack.driver.slashCommand({ userId, channelId: itHelp }));

  it('makes one ticket from a double-clicked submit', async () => {
    stack = await startStack();
    const view = await openModal(alice);
    const values = { title_input: 'Double click' };
    const [a, b] = await Promise.all([
      stack.driver.viewSubmission({ viewId: view.id, userId: alice, values }),
      stack.driver.viewSubmission({ viewId: view.id, userId: alice, values }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    await eventually(
      () => ticketsOf(stack, 'alice@acme.example').some((t) => t.title === 'Double click'),
      5_000,
      'the ticket',
    );
    await stack.app.slack.deps.worker.runOnce();
    expect(
      ticketsOf(stack, 'alice@acme.example').filter((t) => t.title === 'Double click'),
    ).toHaveLength(1);
    const cards = stack.double.workspace
      .messages(itHelp)
      .filter((m) => JSON.stringify(m.blocks ?? []).includes('Double click'));
    expect(cards).toHaveLength(1);
  });

  it('makes one ticket when two replicas sharing Redis receive the same event', async () => {
    stack = await startStack();
    const second = await stack.addReplica();
    const dm = stack.double.workspace.openIm(bob);
    const message = stack.double.workspace.postMessage(dm, {
      user: bob,
      text: 'Two replicas, one ticket',
    });
    const envelope = stack.driver.envelope({
      ...message,
      channel: dm,
      channel_type: 'im',
      event_ts: message.ts,
    });
    const [a, b] = await Promise.all([
      stack.driver.event(envelope.event, { eventId: envelope.event_id }),
      second.driver.event(envelope.event, { eventId: envelope.event_id }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    await eventually(() => ticketsOf(stack, 'bob@acme.example').length > 0, 5_000, 'the ticket');
    await Promise.all([stack.app.slack.deps.worker.runOnce(), second.slack.deps.worker.runOnce()]);
    expect(
      ticketsOf(stack, 'bob@acme.example').filter((t) => t.title === 'Two replicas, one ticket'),
    ).toHaveLength(1);
  });

  it('files the ticket once after the platform answers 503 for 30 s, and tells the person it is delayed', {
    timeout: 60_000,
  }, async () => {
    stack = await startStack();
    const dm = stack.double.workspace.openIm(alice);
    stack.emulator.setFaults({ down: true });
    const sent = await stack.driver.userPosts({
      userId: alice,
      channelId: dm,
      text: 'Filed during an outage',
    });
    expect(sent.delivery?.status).toBe(200);
    await eventually(
      () =>
        (stack.double.workspace.thread(dm, sent.ts) ?? []).some((m) =>
          m.text?.includes('not answering'),
        ),
      10_000,
      'the delay notice',
    );
    await new Promise((r) => setTimeout(r, 30_000));
    expect(
      ticketsOf(stack, 'alice@acme.example').some((t) => t.title === 'Filed during an outage'),
    ).toBe(false);
    stack.emulator.setFaults({ down: false });
    await eventually(
      () =>
        (stack.double.workspace.thread(dm, sent.ts) ?? []).some((m) =>
          m.text?.includes('was filed'),
        ),
      15_000,
      'the ticket after recovery',
    );
    expect(
      ticketsOf(stack, 'alice@acme.example').filter((t) => t.title === 'Filed during an outage'),
    ).toHaveLength(1);
  });

  it('makes nothing new when the platform created the ticket but its answer was lost', async () => {
    stack = await startStack();
    stack.emulator.setFaults({ loseWriteResponses: 1 });
    const dm = stack.double.workspace.openIm(bob);
    const sent = await stack.driver.userPosts({
      userId: bob,
      channelId: dm,
      text: 'Answer lost in transit',
    });
    await eventually(
      () =>
        (stack.double.workspace.thread(dm, sent.ts) ?? []).some((m) =>
          m.text?.includes('was filed'),
        ),
      10_000,
      'the ticket',
    );
    expect(
      ticketsOf(stack, 'bob@acme.example').filter((t) => t.title === 'Answer lost in transit'),
    ).toHaveLength(1);
  });

  it('keeps an intent through a restart and files it from the new process', {
    timeout: 30_000,
  }, async () => {
    stack = await startStack();
    stack.emulator.setFaults({ down: true });
    const dm = stack.double.workspace.openIm(alice);
    const sent = await stack.driver.userPosts({
      userId: alice,
      channelId: dm,
      text: 'Survives a restart',
    });
    expect(sent.delivery?.status).toBe(200);
    await stack.app.stop();
    stack.emulator.setFaults({ down: false });
    await stack.addReplica();
    await eventually(
      () => ticketsOf(stack, 'alice@acme.example').some((t) => t.title === 'Survives a restart'),
      15_000,
      'the ticket filed by the new process',
    );
  });

  it('answers 500 so that Slack delivers again when the intent cannot be stored', async () => {
    stack = await startStack();
    const dm = stack.double.workspace.openIm(alice);
    stack.app.redis.disconnect();
    const sent = await stack.driver.userPosts({
      userId: alice,
      channelId: dm,
      text: 'Redis is away',
    });
    expect(sent.delivery?.status).toBe(500);
  });

  it('refuses a bad signature, a stale timestamp and an unsigned request, and a malformed body', async () => {
    stack = await startStack();
    const bad = await stack.driver.slashCommand(
      { userId: alice, channelId: itHelp, text: 'help' },
      { badSignature: true },
    );
    const stale = await stack.driver.slashCommand(
      { userId: alice, channelId: itHelp, text: 'help' },
      { staleTimestamp: true },
    );
    const unsigned = await stack.driver.slashCommand(
      { userId: alice, channelId: itHelp, text: 'help' },
      { unsigned: true },
    );
    expect([bad.status, stale.status, unsigned.status]).toEqual([401, 401, 401]);
    const malformed = await stack.driver.sendRaw({
      body: '{"type": "event_callback", ',
      contentType: 'application/json',
    });
    expect(malformed.status).toBe(400);
    expect(stack.double.callsTo('views.open')).toHaveLength(0);
  });

  it('answers 400 at once to a signed body that parses to null, as JSON or as a form payload', async () => {
    stack = await startStack();
    const json = await stack.driver.sendRaw({ body: 'null', contentType: 'application/json' });
    const form = await stack.driver.sendRaw({
      body: 'payload=null',
      contentType: 'application/x-www-form-urlencoded',
    });
    const number = await stack.driver.sendRaw({ body: '42', contentType: 'application/json' });
    expect([json.status, form.status, number.status]).toEqual([400, 400, 400]);
    // The app still answers what Slack really sends.
    const help = await stack.driver.slashCommand({
      userId: alice,
      channelId: itHelp,
      text: 'help',
    });
    expect(help.status).toBe(200);
  });

  it('answers 200 to signed events of the wrong shape, queues nothing and logs what it ignored', async () => {
    stack = await startStack();
    const dm = stack.double.workspace.openIm(alice);
    const events = [
      { type: 'message', channel: dm, channel_type: 'im', user: 42, text: 'x', ts: '1.1' },
      { type: 'message', channel: dm, channel_type: 'im', user: alice, text: { a: 1 }, ts: '1.2' },
      {
        type: 'reaction_added',
        user: alice,
        reaction: 7,
        item: { type: 'message', channel: itHelp, ts: '1.3' },
      },
    ];
    const statuses = [];
    for (const event of events) {
      const delivery = await stack.driver.event(event as never, { simulateSlackRetries: false });
      statuses.push(delivery.status);
    }
    expect(statuses).toEqual([200, 200, 200]);
    expect((await stack.app.stores.outbox.stats()).depth).toBe(0);
    expect(stack.logs.filter((l) => l.includes('does not have the shape')).length).toBe(3);
    expect(stack.logs.join('\n')).toContain('"fields":["user"]');
  });

  it('acknowledges Slack within its 3-second window', async () => {
    stack = await startStack();
    const command = await stack.driver.slashCommand({ userId: alice, channelId: itHelp });
    expect(command.ackMs).toBeLessThan(3_000);
  });

  it('writes no token, key or secret into its logs', async () => {
    stack = await startStack();
    stack.emulator.setFaults({ down: true });
    const dm = stack.double.workspace.openIm(alice);
    await stack.driver.userPosts({ userId: alice, channelId: dm, text: 'Log check' });
    await eventually(
      () => stack.logs.some((l) => l.includes('will be retried')),
      5_000,
      'a retry logged',
    );
    const all = stack.logs.join('\n');
    for (const secret of [defaultIds.botToken, 'sd_acme_rw', 'e2e-signing-secret'])
      expect(all).not.toContain(secret);
  });
});
