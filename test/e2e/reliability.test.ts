/** No duplicates, nothing lost: retries, double clicks, replicas, outages, restarts, refusals. */
import { afterEach, describe, expect, it } from 'vitest';
import { ACTIONS, CATALOG_FIELDS, CREATE_FIELDS, SHORTCUTS, VIEWS } from '../../src/slack/ids.ts';
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

  // The platform's answers to creating a ticket, refusals included.
  const filingAttempts = () => stack.platformRequests.filter((op) => op === 'createTicket').length;

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

  it('files the ticket once after the platform answers 503 for 30 s, and tells the person it is delayed', async () => {
    // The app's clock, moved on through the outage instead of waiting it out.
    const skew = { ms: 0 };
    stack = await startStack({ now: () => Date.now() + skew.ms });
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
    const attemptsBefore = filingAttempts();
    // 30 s on the app's clock, a second at a time: the outbox tries again whenever it is due.
    for (let second = 0; second < 30; second++) {
      skew.ms += 1_000;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(filingAttempts() - attemptsBefore).toBeGreaterThanOrEqual(5);
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

  // The odd shapes a signed button click's `value` came in (an attack review's 119 of 3,213
  // malformed requests answered 500): each for every action the app renders.
  const ODD_VALUES: readonly unknown[] = [
    {},
    { id: 'IT-1' },
    0,
    42,
    -1.5,
    [],
    ['IT-1'],
    null,
    true,
  ];
  const ACTION_IDS = [
    ...Object.values(ACTIONS),
    CREATE_FIELDS.desk.action,
    CATALOG_FIELDS.item.action,
  ];
  const inMessage = {
    container: { type: 'message', message_ts: '1700000000.000100', channel_id: itHelp },
    channel: { id: itHelp, name: 'it-help' },
    message: { type: 'message', ts: '1700000000.000100', text: 'card', blocks: [] },
    response_url: 'https://hooks.slack.invalid/actions/T/1/x',
    trigger_id: '1.2.trigger',
  };
  const click = (action: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    form({
      type: 'block_actions',
      user,
      team,
      ...inMessage,
      actions: [{ type: 'button', block_id: 'b', action_ts: '1.6', ...action }],
      ...extra,
    });

  it('answers at once with 200 a button click whose value is an object, a number, an array, null or true, on every action', async () => {
    stack = await startStack();
    const answers = [];
    for (const actionId of ACTION_IDS) {
      for (const value of ODD_VALUES) {
        const answer = await stack.driver.sendRaw({
          body: click({ action_id: actionId, value }),
          contentType: FORM,
        });
        answers.push({ actionId, value, status: answer.status, fast: answer.ackMs < 1_000 });
      }
    }
    expect(answers.filter((a) => a.status !== 200 || !a.fast)).toEqual([]);
    expect(answers).toHaveLength(ACTION_IDS.length * ODD_VALUES.length);
    expect((await stack.app.stores.outbox.stats()).depth).toBe(0);
    expect(stack.logs.filter((l) => /"level":(40|50)/.test(l))).toEqual([]);
  });

  // A view as Slack sends it, every field of the right type; each case below spoils one.
  const createView = {
    id: 'V0ODD',
    callback_id: VIEWS.createTicket,
    hash: '1.abc',
    private_metadata: '{}',
    blocks: [{ type: 'input', block_id: 'title' }],
    state: { values: { title: { title_input: { type: 'plain_text_input', value: 'Odd' } } } },
  };
  const inView = (view: Record<string, unknown>) => ({
    container: { type: 'view', view_id: 'V0ODD' },
    trigger_id: '1.2.trigger',
    view,
  });
  const deskChosen = (
    action: Record<string, unknown>,
    view: Record<string, unknown> = createView,
  ) =>
    form({
      type: 'block_actions',
      user,
      team,
      ...inView(view),
      actions: [
        {
          type: 'static_select',
          action_id: CREATE_FIELDS.desk.action,
          block_id: CREATE_FIELDS.desk.block,
          action_ts: '1.7',
          selected_option: { text: { type: 'plain_text', text: 'IT' }, value: 'it' },
          ...action,
        },
      ],
    });
  const state = (inputState: Record<string, unknown>) => ({
    ...createView,
    state: { values: { title: { title_input: { type: 'plain_text_input', ...inputState } } } },
  });
  const submission = (view: Record<string, unknown>) =>
    form({ type: 'view_submission', user, team, view });
  const suggestion = (fields: Record<string, unknown>) =>
    form({
      type: 'block_suggestion',
      user,
      team,
      action_id: CATALOG_FIELDS.item.action,
      block_id: CATALOG_FIELDS.item.block,
      value: 'lap',
      view: createView,
      ...fields,
    });
  const shortcutOn = (message: Record<string, unknown>, fields: Record<string, unknown> = {}) =>
    form({
      type: 'message_action',
      user,
      team,
      callback_id: SHORTCUTS.createFromMessage,
      trigger_id: '1.2.trigger',
      action_ts: '1.8',
      response_url: 'https://hooks.slack.invalid/actions/T/2/y',
      channel: { id: itHelp, name: 'it-help' },
      message: { type: 'message', user: bob, ts: '1700000000.000200', text: 'Odd', ...message },
      ...fields,
    });
  const markResolved = { action_id: ACTIONS.markResolved, value: 'IT-1' };

  // Every other field a listener reads, of the wrong type, one at a time.
  const oddFields: { name: string; body: string }[] = [
    { name: 'an action whose block_id is a number', body: click({ ...markResolved, block_id: 7 }) },
    {
      name: 'an action whose action_ts is an object',
      body: click({ ...markResolved, action_ts: {} }),
    },
    { name: 'an action whose action_id is a number', body: click({ action_id: 7, value: 'IT-1' }) },
    { name: 'a click whose trigger_id is a number', body: click(markResolved, { trigger_id: 9 }) },
    {
      name: 'a click whose response_url is an object',
      body: click(markResolved, { response_url: {} }),
    },
    { name: 'a click whose container is a string', body: click(markResolved, { container: 'x' }) },
    {
      name: 'a click whose container’s channel_id is a number',
      body: click(markResolved, {
        container: { type: 'message', channel_id: 5, message_ts: '1.1' },
      }),
    },
    {
      name: 'a click whose container’s message_ts is an array',
      body: click(markResolved, {
        container: { type: 'message', channel_id: itHelp, message_ts: [] },
      }),
    },
    { name: 'a click whose message is a string', body: click(markResolved, { message: 'x' }) },
    {
      name: 'a click whose message’s ts is a number',
      body: click(markResolved, { message: { ts: 5 } }),
    },
    {
      name: 'a click whose message’s thread_ts is an object',
      body: click(markResolved, { message: { ts: '1.1', thread_ts: {} } }),
    },
    {
      name: 'a click whose message’s blocks are a string',
      body: click(markResolved, { message: { ts: '1.1', blocks: 'x' } }),
    },
    {
      name: 'a click whose channel id is a number',
      body: click(markResolved, { channel: { id: 5 } }),
    },
    {
      name: 'a select whose selected_option is a string',
      body: deskChosen({ selected_option: 'it' }),
    },
    {
      name: 'a select whose option’s value is a number',
      body: deskChosen({ selected_option: { text: { type: 'plain_text', text: 'IT' }, value: 5 } }),
    },
    {
      name: 'a catalog choice whose option has no text',
      body: deskChosen({
        action_id: CATALOG_FIELDS.item.action,
        selected_option: { value: 'it:c1' },
      }),
    },
    {
      name: 'a select in a view whose hash is a number',
      body: deskChosen({}, { ...createView, hash: 5 }),
    },
    {
      name: 'a select in a view whose private_metadata is an object',
      body: deskChosen({}, { ...createView, private_metadata: {} }),
    },
    {
      name: 'a select in a view whose blocks are a string',
      body: deskChosen({}, { ...createView, blocks: 'x' }),
    },
    {
      name: 'a select in a view with a null block',
      body: deskChosen({}, { ...createView, blocks: [null] }),
    },
    {
      name: 'a select in a view whose state values are a string',
      body: deskChosen({}, { ...createView, state: { values: 'x' } }),
    },
    {
      name: 'a select in a view whose state holds a number',
      body: deskChosen({}, state({ value: 5 })),
    },
    ...Object.values(VIEWS).flatMap((callbackId) => [
      {
        name: `a ${callbackId} submission whose private_metadata is a number`,
        body: submission({ ...createView, callback_id: callbackId, private_metadata: 5 }),
      },
      {
        name: `a ${callbackId} submission without blocks`,
        body: submission({ ...createView, callback_id: callbackId, blocks: undefined }),
      },
      {
        name: `a ${callbackId} submission whose input value is an object`,
        body: submission({ ...state({ value: {} }), callback_id: callbackId }),
      },
    ]),
    {
      name: 'a submission whose view has no id',
      body: submission({ ...createView, id: undefined }),
    },
    {
      name: 'a submission whose user has no id',
      body: form({ type: 'view_submission', user: { team_id: team.id }, team, view: createView }),
    },
    { name: 'a click whose user id is a number', body: click(markResolved, { user: { id: 5 } }) },
    { name: 'a submission whose input value is a number', body: submission(state({ value: 5 })) },
    {
      name: 'a submission whose input value is an array',
      body: submission(state({ value: ['x'] })),
    },
    {
      name: 'a submission whose selected_option is a string',
      body: submission(state({ type: 'static_select', selected_option: 'it' })),
    },
    {
      name: 'a submission whose selected_options are an object',
      body: submission(state({ type: 'multi_static_select', selected_options: {} })),
    },
    {
      name: 'a submission whose selected_user is a number',
      body: submission(state({ type: 'users_select', selected_user: 5 })),
    },
    {
      name: 'a submission whose selected_date is an array',
      body: submission(state({ type: 'datepicker', selected_date: [] })),
    },
    {
      name: 'a submission whose block’s state is a string',
      body: submission({ ...createView, state: { values: { title: 'x' } } }),
    },
    { name: 'an options request whose value is an object', body: suggestion({ value: {} }) },
    { name: 'an options request whose value is a number', body: suggestion({ value: 5 }) },
    {
      name: 'an options request in a view whose private_metadata is a number',
      body: suggestion({ view: { ...createView, private_metadata: 5 } }),
    },
    { name: 'a message shortcut whose message’s text is a number', body: shortcutOn({ text: 5 }) },
    {
      name: 'a message shortcut whose message’s user is an object',
      body: shortcutOn({ user: {} }),
    },
    { name: 'a message shortcut whose message’s ts is a number', body: shortcutOn({ ts: 5 }) },
    {
      name: 'a message shortcut whose message’s thread_ts is an array',
      body: shortcutOn({ thread_ts: [] }),
    },
    {
      name: 'a message shortcut whose message’s files are a string',
      body: shortcutOn({ files: 'x' }),
    },
    {
      name: 'a message shortcut whose file’s name is a number',
      body: shortcutOn({ files: [{ name: 5 }] }),
    },
    {
      name: 'a message shortcut whose response_url is a number',
      body: shortcutOn({}, { response_url: 5 }),
    },
    {
      name: 'a message shortcut whose channel id is an object',
      body: shortcutOn({}, { channel: { id: {} } }),
    },
    {
      name: 'a Send to requester shortcut whose message’s user is a number',
      body: shortcutOn({ user: 5 }, { callback_id: SHORTCUTS.sendToRequester }),
    },
    {
      name: 'a global shortcut whose trigger_id is a number',
      body: form({ type: 'shortcut', user, team, callback_id: SHORTCUTS.newTicket, trigger_id: 5 }),
    },
  ];

  it('answers at once with 200 every field a listener reads when it has the wrong type, noted at debug', async () => {
    stack = await startStack();
    const answers = [];
    for (const c of oddFields) {
      const answer = await stack.driver.sendRaw({ body: c.body, contentType: FORM });
      answers.push({ name: c.name, status: answer.status, fast: answer.ackMs < 1_000 });
    }
    expect(answers).toEqual(oddFields.map((c) => ({ name: c.name, status: 200, fast: true })));
    expect((await stack.app.stores.outbox.stats()).depth).toBe(0);
    expect(stack.logs.filter((l) => /"level":(40|50)/.test(l))).toEqual([]);
    const noted = stack.logs.filter((l) => l.includes('does not handle'));
    expect(noted).toHaveLength(oddFields.length);
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
