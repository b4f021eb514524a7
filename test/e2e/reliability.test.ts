/** No duplicates, nothing lost: retries, double clicks, replicas, outages, restarts, refusals. */
import { afterEach, describe, expect, it } from 'vitest';
import { defaultIds } from '../../tools/slack-double/index.ts';
import { slackSignature } from '../../tools/slack-double/request-signing.ts';
import { eventually } from '../support/eventually.ts';
import {
  modalOpenedBy,
  SIGNING_SECRET,
  type Stack,
  startStack,
  ticketsOf,
} from '../support/stack.ts';

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
    await stack.app.slack.worker.runOnce();
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
    await Promise.all([stack.app.slack.worker.runOnce(), second.slack.worker.runOnce()]);
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

  it('names the ticket in one message, its confirmation, when Slack rate-limits the confirmation, and never says the service desk is away', async () => {
    stack = await startStack();
    stack.double.failNext('chat.postMessage', 'ratelimited', { retryAfterSec: 2 });
    const dm = stack.double.workspace.openIm(bob);
    const sent = await stack.driver.userPosts({ userId: bob, channelId: dm, text: 'Mouse lags' });
    const thread = () => stack.double.workspace.thread(dm, sent.ts) ?? [];
    await eventually(
      () => thread().some((m) => m.text?.includes('was filed')),
      10_000,
      'the confirmation',
    );
    const ticket = ticketsOf(stack, 'bob@acme.example').find((t) => t.title === 'Mouse lags');
    const naming = thread().filter((m) => ticket && JSON.stringify(m).includes(ticket.id));
    expect(naming).toHaveLength(1);
    expect(naming[0]?.text).toContain('was filed');
    expect(thread().some((m) => m.text?.includes('not answering'))).toBe(false);
  });

  it('tells a colleague their Mark resolved is refused and keeps no dead letter of it', async () => {
    stack = await startStack();
    const view = await openModal(alice);
    await stack.driver.viewSubmission({
      viewId: view.id,
      userId: alice,
      values: { title_input: 'Projector flickers' },
    });
    const card = await eventually(
      () =>
        stack.double.workspace
          .messages(itHelp)
          .find((m) => JSON.stringify(m.blocks ?? []).includes('Projector flickers')),
      5_000,
      'the card',
    );
    // A replica that has not seen the ticket: the requester is not known, so the click is
    // queued and the intent refuses it.
    const other = await stack.addReplica();
    await other.driver.blockAction({
      userId: bob,
      actionId: 'mark_resolved',
      channelId: itHelp,
      messageTs: card.ts,
    });
    await eventually(
      () =>
        stack.double.workspace
          .ephemerals({ user: bob })
          .some((e) => e.text.includes('You can’t change')),
      5_000,
      'the refusal',
    );
    expect(await stack.app.stores.outbox.deadLetters()).toEqual([]);
    expect((await stack.app.stores.outbox.stats()).depth).toBe(0);
    expect(stack.logs.some((l) => l.includes('outbox entry refused'))).toBe(true);
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

describe('signed requests the app does not handle', () => {
  let stack: Stack;
  afterEach(async () => {
    await stack.close();
  });

  const team = { id: 'T0DOUBLE', domain: 'acme' };
  const user = { id: alice, team_id: team.id };
  const form = (payload: unknown) => `payload=${encodeURIComponent(JSON.stringify(payload))}`;
  const command = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const FORM = 'application/x-www-form-urlencoded';
  const event = (inner: unknown) =>
    JSON.stringify({
      type: 'event_callback',
      team_id: team.id,
      api_app_id: 'A0DOUBLE',
      event_id: `Ev${Math.random().toString(36).slice(2)}`,
      event_time: 1,
      event: inner,
    });

  // Each a signed request of a shape the app does not act on: what Slack must not deliver again.
  const cases: { name: string; body: string; contentType?: string; status: number }[] = [
    { name: 'an event_callback whose event is null', body: event(null), status: 200 },
    { name: 'an event_callback without an event', body: '{"type":"event_callback"}', status: 200 },
    {
      name: 'a message event whose user is null',
      body: event({ type: 'message', channel: itHelp, user: null, text: 'x', ts: '1.1' }),
      status: 200,
    },
    {
      name: 'a message event whose channel is null',
      body: event({ type: 'message', channel: null, user: alice, text: 'x', ts: '1.2' }),
      status: 200,
    },
    {
      name: 'a reaction_added on a message with no channel',
      body: event({
        type: 'reaction_added',
        user: alice,
        reaction: 'ticket',
        item: { type: 'message' },
      }),
      status: 200,
    },
    {
      name: 'a reaction_added whose user is null',
      body: event({
        type: 'reaction_added',
        user: null,
        reaction: 'ticket',
        item: { type: 'message', channel: itHelp, ts: '1.3' },
      }),
      status: 200,
    },
    {
      name: 'an event of an unknown envelope type',
      body: '{"type":"a_type_slack_may_add_one_day","team_id":"T0DOUBLE"}',
      status: 200,
    },
    { name: 'a JSON object that is no Slack payload', body: '{"hello":"world"}', status: 400 },
    {
      name: 'block_actions whose actions are null',
      body: form({ type: 'block_actions', user, team, actions: null }),
      contentType: FORM,
      status: 200,
    },
    {
      name: 'block_actions with no action',
      body: form({ type: 'block_actions', user, team, actions: [] }),
      contentType: FORM,
      status: 200,
    },
    {
      name: 'block_actions whose user is null',
      body: form({
        type: 'block_actions',
        user: null,
        team,
        actions: [{ type: 'button', action_id: 'mark_resolved', value: 'IT-1', action_ts: '1.4' }],
      }),
      contentType: FORM,
      status: 200,
    },
    {
      name: 'block_actions of an action the app never renders',
      body: form({
        type: 'block_actions',
        user,
        team,
        actions: [{ type: 'button', action_id: 'not_ours', value: 'x', action_ts: '1.5' }],
      }),
      contentType: FORM,
      status: 200,
    },
    {
      name: 'a view_submission whose view is null',
      body: form({ type: 'view_submission', user, team, view: null }),
      contentType: FORM,
      status: 200,
    },
    {
      name: 'a view_closed whose view is null',
      body: form({ type: 'view_closed', user, team, view: null }),
      contentType: FORM,
      status: 200,
    },
    {
      name: 'a view_submission of a view the app never opens',
      body: form({
        type: 'view_submission',
        user,
        team,
        view: { id: 'V1', callback_id: 'not_ours', state: { values: {} } },
      }),
      contentType: FORM,
      status: 200,
    },
    {
      name: 'a shortcut whose user is null',
      body: form({
        type: 'shortcut',
        user: null,
        team,
        callback_id: 'new_ticket',
        trigger_id: 't',
      }),
      contentType: FORM,
      status: 200,
    },
    {
      name: 'an interaction of an unknown type',
      body: form({ type: 'an_interaction_slack_may_add', user, team }),
      contentType: FORM,
      status: 200,
    },
    {
      name: 'an interaction payload that is no Slack payload',
      body: form({ hello: 'world' }),
      contentType: FORM,
      status: 400,
    },
    {
      name: 'a /ticket command with no user_id',
      body: command({ command: '/ticket', text: 'help', team_id: team.id, channel_id: itHelp }),
      contentType: FORM,
      status: 200,
    },
    {
      name: 'a slash command the app does not have',
      body: command({
        command: '/not-ours',
        text: '',
        team_id: team.id,
        channel_id: itHelp,
        user_id: alice,
      }),
      contentType: FORM,
      status: 200,
    },
  ];

  it('answers each at once with 200, or 400 when it is no Slack payload, and queues nothing', async () => {
    stack = await startStack();
    const answers = [];
    for (const c of cases) {
      const answer = await stack.driver.sendRaw({
        body: c.body,
        contentType: c.contentType ?? 'application/json',
      });
      answers.push({ name: c.name, status: answer.status, fast: answer.ackMs < 1_000 });
    }
    expect(answers).toEqual(cases.map((c) => ({ name: c.name, status: c.status, fast: true })));
    expect((await stack.app.stores.outbox.stats()).depth).toBe(0);
    // Noted at debug, never louder: anyone who can sign could otherwise fill the log.
    expect(stack.logs.filter((l) => /"level":(40|50)/.test(l))).toEqual([]);
    const noted = stack.logs.filter((l) =>
      /does not handle|no listener handles|does not have the shape|not a Slack payload/.test(l),
    );
    // Each noted once.
    expect(noted).toHaveLength(cases.length);
    expect(noted.every((l) => l.includes('"level":20'))).toBe(true);
  });

  it('refuses such a request unsigned or wrongly signed, as it refuses any other', async () => {
    stack = await startStack();
    const body = event(null);
    const unsigned = await stack.driver.sendRaw({ body, unsigned: true });
    const bad = await stack.driver.sendRaw({ body, badSignature: true });
    const notSlack = await stack.driver.sendRaw({ body: '{"hello":"world"}', badSignature: true });
    expect([unsigned.status, bad.status, notSlack.status]).toEqual([401, 401, 401]);
  });
});

describe('request timestamps', () => {
  let stack: Stack;
  afterEach(async () => {
    await stack.close();
  });

  it('refuses a request signed more than five minutes in the future, as it refuses a stale one', async () => {
    stack = await startStack();
    const form = new URLSearchParams({
      command: '/ticket',
      text: 'help',
      team_id: 'T0DOUBLE',
      channel_id: itHelp,
      user_id: alice,
      trigger_id: 'trigger-ahead',
    }).toString();
    const ahead = Math.floor(Date.now() / 1000) + 6 * 60;
    const answer = await stack.driver.sendRaw({
      body: form,
      contentType: 'application/x-www-form-urlencoded',
      headers: {
        'x-slack-request-timestamp': String(ahead),
        'x-slack-signature': slackSignature(SIGNING_SECRET, ahead, form),
      },
    });
    expect(answer.status).toBe(401);
    // A little ahead is a clock a little off, and still accepted.
    const near = Math.floor(Date.now() / 1000) + 60;
    const accepted = await stack.driver.sendRaw({
      body: form,
      contentType: 'application/x-www-form-urlencoded',
      headers: {
        'x-slack-request-timestamp': String(near),
        'x-slack-signature': slackSignature(SIGNING_SECRET, near, form),
      },
    });
    expect(accepted.status).toBe(200);
  });
});
