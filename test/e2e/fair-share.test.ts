/**
 * One person cannot spend everyone's platform budget: their lookups are held to a fair share
 * and told when to try again, another person's lookup is still answered, the same lookup
 * repeated within seconds is read from the platform once, and a lookup when the shared budget
 * is spent is answered with words (busy and when, or what the app knew with its age).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initialMirrorState } from '../../src/mirror/index.ts';
import { buildTicketCard } from '../../src/slack/builders/ticket-card-builder.ts';
import { DEFAULT_FAIR_SHARE } from '../../src/slack/people/fair-share.ts';
import { defaultIds } from '../../tools/slack-double/index.ts';
import { eventually } from '../support/eventually.ts';
import { modalOpenedBy, type Stack, startStack, ticketsOf } from '../support/stack.ts';

const { alice, bob, agent, itHelp } = defaultIds;

/** Runs `/ticket <text>` as the person and returns the private answer's JSON text. */
async function lookup(stack: Stack, userId: string, text: string): Promise<string> {
  const command = await stack.driver.slashCommand({ userId, channelId: itHelp, text });
  expect(command.status).toBe(200);
  const post = await stack.double.waitForResponseUrlPost(
    (p) => p.url === command.responseUrl,
    15_000,
  );
  return JSON.stringify(post.body);
}

const getTickets = (stack: Stack) => stack.platformRequests.filter((op) => op === 'getTicket');

/** Spends what is left of the person's own fair share, as a burst of their requests would. */
async function spendShare(stack: Stack, userId: string): Promise<void> {
  while ((await stack.app.stores.fairShare.take(userId, DEFAULT_FAIR_SHARE)).granted);
}

async function metricsText(stack: Stack): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${stack.app.port}/metrics`);
  return response.text();
}

describe('a person’s fair share of lookups, inside a small budget', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ budget: { perMinute: 40, perHour: 1_000 } });
  });
  afterAll(async () => {
    await stack.close();
  });

  it('answers one person’s burst past their share with when to try again, and another person’s lookup with its card', async () => {
    const mine = Array.from({ length: 8 }, (_, i) =>
      stack.emulator.model.createTicket('acme', {
        title: `Burst ${i}`,
        requester_email: 'alice@acme.example',
      }),
    );
    const bobs = stack.emulator.model.createTicket('acme', {
      title: 'Bob’s monitor',
      requester_email: 'bob@acme.example',
    });
    const before = getTickets(stack).length;
    const answers: string[] = [];
    for (const ticket of mine) answers.push(await lookup(stack, alice, ticket.id));
    const cards = answers.filter((a) => a.includes('Burst'));
    const refused = answers.filter((a) => a.includes('You have asked the service desk for a lot'));
    expect(cards).toHaveLength(5);
    expect(refused).toHaveLength(3);
    for (const answer of refused) expect(answer).toMatch(/try again in about \d+ (s|min)/);
    expect(getTickets(stack).length - before).toBe(5);

    expect(await lookup(stack, bob, bobs.id)).toContain('Bob’s monitor');
  });

  it('opens the create form for a person whose share is spent, saying their devices wait and when, and files it', async () => {
    // The form's reads are Alice's to pay too.
    await spendShare(stack, alice);
    const before = stack.platformRequests.length;
    const modal = await modalOpenedBy(stack, alice, async () => {
      await stack.driver.slashCommand({ userId: alice, channelId: itHelp, text: 'Scanner jams' });
    });
    const text = JSON.stringify(modal.blocks);
    expect(text).toMatch(
      /Desks or your devices could not be listed: you have asked the service desk for a lot in the last minute; try again in about \d+ (s|min)/,
    );
    expect(text).toContain('You can still file');
    // Their devices wait for their share; a shared list (desks, a desk's fields) is read when
    // nobody's copy is kept, their share spent or not.
    expect(stack.platformRequests.slice(before)).not.toContain('listAssets');
    await stack.driver.viewSubmission({ viewId: modal.id, userId: alice, values: {} });
    await eventually(
      () => ticketsOf(stack, 'alice@acme.example').find((t) => t.title === 'Scanner jams'),
      10_000,
      'the ticket filed',
    );
  });

  it('names a ticket’s thread to a person whose share is spent without reading the platform for its title', async () => {
    const ticket = stack.emulator.model.createTicket('acme', {
      title: 'Taken thread',
      requester_email: 'alice@acme.example',
    });
    const posted = await stack.app.slack.deps.client.chat.postMessage({
      channel: itHelp,
      ...buildTicketCard(ticket),
    });
    const ts = posted.ts ?? '?';
    await stack.app.stores.links.link(ticket.id, { channel: itHelp, threadTs: ts });
    await spendShare(stack, alice);
    const before = getTickets(stack).length;
    await stack.driver.messageShortcut({
      callbackId: 'create_ticket_from_message',
      userId: alice,
      channelId: itHelp,
      messageTs: ts,
    });
    await eventually(
      () =>
        stack.double.workspace
          .ephemerals({ user: alice })
          .find((e) => e.text.includes(ticket.id) && !e.text.includes('Taken thread')),
      5_000,
      'the private notice naming the ticket',
    );
    expect(getTickets(stack).length).toBe(before);
  });

  it('reads the same ticket once for lookups repeated within seconds, and checks each person’s access every time', async () => {
    const ticket = stack.emulator.model.createTicket('acme', {
      title: 'Shared lookup',
      requester_email: 'bob@acme.example',
    });
    const before = getTickets(stack).length;
    expect(await lookup(stack, agent, ticket.id)).toContain('Shared lookup');
    expect(await lookup(stack, agent, ticket.id)).toContain('Shared lookup');
    expect(await lookup(stack, bob, ticket.id)).toContain('Shared lookup');
    // Alice may not see Bob's ticket: the cached copy is answered exactly like a missing one.
    const hidden = await lookup(stack, alice, ticket.id);
    expect(hidden).toContain('or it isn’t yours to see');
    expect(hidden).not.toContain('Shared lookup');
    expect(getTickets(stack).length - before).toBe(1);
  });

  it('lets a lookup wait briefly for the budget, answers it, and records the wait', async () => {
    const ticket = stack.emulator.model.createTicket('acme', {
      title: 'Worth the wait',
      requester_email: 'bob@acme.example',
    });
    // Every replica holds back for a moment, as after the platform's 429.
    await stack.app.stores.budget.backOff(Date.now() + 1_000);
    expect(await lookup(stack, agent, ticket.id)).toContain('Worth the wait');
    expect(await metricsText(stack)).toMatch(
      /servicedesk_slack_people_budget_wait_seconds_count\{outcome="granted"\} [1-9]/,
    );
  });

  it('counts the refused lookups in /metrics by reason', async () => {
    const text = await metricsText(stack);
    const line = text
      .split('\n')
      .find((l) =>
        l.startsWith(
          'servicedesk_slack_people_refusals_total{reason="fair_share",request="lookup"}',
        ),
      );
    expect(Number(line?.split(' ').at(-1))).toBeGreaterThanOrEqual(3);
    expect(text).toMatch(
      /servicedesk_slack_people_answers_total\{source="cache",request="lookup"\} [1-9]/,
    );
  });
});

describe('the create form’s reads in a person’s fair share, at the platform’s budget', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ budget: { perMinute: 100, perHour: 1_000 } });
    for (const [email, n] of [
      ['alice@acme.example', 1],
      ['bob@acme.example', 2],
    ] as const) {
      stack.emulator.model.addAsset('acme', {
        id: `ast_fair_${n}`,
        name: `Fair-share laptop ${n}`,
        type: 'laptop',
        serial_number: `SN-FAIR-${n}`,
        assigned_to_email: email,
      });
    }
  });
  afterAll(async () => {
    await stack.close();
  });

  it('answers another person’s lookups with their cards after one person opens the form 120 times', async () => {
    const bobs = Array.from({ length: 8 }, (_, i) =>
      stack.emulator.model.createTicket('acme', {
        title: `Bob’s card ${i}`,
        requester_email: 'bob@acme.example',
      }),
    );
    const updates = stack.double.callsTo('views.update').length;
    for (let i = 0; i < 120; i++) {
      const opened = await stack.driver.slashCommand({
        userId: alice,
        channelId: itHelp,
        text: `printer ${i} broken`,
      });
      expect(opened.status).toBe(200);
    }
    // Every form opened and was filled in: the person is never kept from filing.
    await eventually(
      () => stack.double.callsTo('views.update').length - updates >= 120,
      30_000,
      'the 120 forms filled in',
    );
    const form = JSON.stringify(stack.double.workspace.modalStack(alice).at(-1)?.blocks);
    expect(form).toContain('Fair-share laptop 1');
    expect(stack.platformRequests.filter((op) => op === 'listAssets')).toHaveLength(1);
    // As in the report: the other person's 8 lookups over the next 32 s (within their own share).
    const answers: string[] = [];
    for (const ticket of bobs) {
      const asked = Date.now();
      answers.push(await lookup(stack, bob, ticket.id));
      await new Promise((r) => setTimeout(r, Math.max(0, asked + 4_000 - Date.now())));
    }
    expect(answers.filter((answer, i) => answer.includes(`Bob’s card ${i}`))).toHaveLength(8);
  }, 120_000);
});

describe('lookups when the shared budget is spent', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ budget: { perMinute: 3, perHour: 1_000 } });
  });
  afterAll(async () => {
    await stack.close();
  });

  /** Spends what is left of the minute, as other people's requests would. */
  async function spendTheMinute(): Promise<void> {
    while ((await stack.app.stores.budget.take('interactive')).granted);
  }

  it('answers a lookup with the desk being busy and when to try again, never with silence', async () => {
    const ticket = stack.emulator.model.createTicket('acme', {
      title: 'Never read',
      requester_email: 'alice@acme.example',
    });
    await spendTheMinute();
    const before = getTickets(stack).length;
    const answer = await lookup(stack, alice, ticket.id);
    expect(answer).toMatch(/The service desk is busy; try again in about \d+ (s|min)\./);
    expect(getTickets(stack).length).toBe(before);
    expect(stack.logs.join('')).not.toContain('unexpected error after Slack was answered');
  });

  it('answers with the status the mirror last saw and its age, to the ticket’s requester only', async () => {
    const ticket = stack.emulator.model.createTicket('acme', {
      title: 'Seen by the mirror',
      requester_email: 'alice@acme.example',
    });
    await stack.app.stores.mirror.saveState(ticket.id, {
      ...initialMirrorState(),
      status: 'in_progress',
      requesterEmail: 'alice@acme.example',
      lastPolledAt: Date.now() - 180_000,
    });
    await spendTheMinute();
    const answer = await lookup(stack, alice, ticket.id);
    expect(answer).toContain(`*${ticket.id}* was`);
    expect(answer).toContain('In progress');
    expect(answer).toMatch(/when the app last saw it, 3 min ago/);
    expect(answer).toMatch(/try again in about \d+ (s|min)/);
    // Bob is told only that the desk is busy: nothing about a ticket that is not his.
    const bobs = await lookup(stack, bob, ticket.id);
    expect(bobs).toMatch(/The service desk is busy; try again in about \d+ (s|min)\./);
    expect(bobs).not.toContain('In progress');
  });

  it('answers /ticket mine with the desk being busy and when to try again', async () => {
    await spendTheMinute();
    const command = await stack.driver.slashCommand({
      userId: bob,
      channelId: itHelp,
      text: 'mine',
    });
    const post = await stack.double.waitForResponseUrlPost(
      (p) => p.url === command.responseUrl,
      15_000,
    );
    expect(JSON.stringify(post.body)).toMatch(
      /The service desk is busy; try again in about \d+ (s|min)/,
    );
  });

  it('shows on App Home that the desk is busy and when to look again', async () => {
    await spendTheMinute();
    await stack.driver.appHomeOpened({ userId: bob });
    const home = await eventually(() => stack.double.workspace.homeView(bob), 15_000, 'the Home');
    expect(JSON.stringify(home.blocks)).toMatch(
      /The service desk is busy; try again in about \d+ (s|min)/,
    );
  });

  it('opens the create form saying its lists wait for the busy desk, and when', async () => {
    await spendTheMinute();
    const modal = await modalOpenedBy(stack, bob, async () => {
      await stack.driver.slashCommand({ userId: bob, channelId: itHelp, text: '' });
    });
    const text = JSON.stringify(modal.blocks);
    expect(text).toMatch(
      /Desks or your devices could not be listed: the service desk is busy; try again in about \d+ (s|min)/,
    );
    expect(text).toContain('You can still file');
  });

  /** Posts a ticket's card in #it-help, as filing it from Slack would. */
  async function postedCard(title: string): Promise<string> {
    const ticket = stack.emulator.model.createTicket('acme', {
      title,
      requester_email: 'alice@acme.example',
    });
    const posted = await stack.app.slack.deps.client.chat.postMessage({
      channel: itHelp,
      ...buildTicketCard(ticket),
    });
    if (!posted.ts) throw new Error('the card was not posted');
    return posted.ts;
  }

  function clickUpdate(cardTs: string) {
    return stack.driver.blockAction({
      userId: agent,
      actionId: 'open_update_modal',
      channelId: itHelp,
      messageTs: cardTs,
    });
  }

  it('says in the Update form that the desk is busy and when to try again', async () => {
    const cardTs = await postedCard('Update when busy');
    await spendTheMinute();
    const modal = await modalOpenedBy(stack, agent, () => clickUpdate(cardTs));
    expect(JSON.stringify(modal.blocks)).toMatch(
      /The service desk is busy; try again in about \d+ (s|min)/,
    );
  });

  it('still says so in the Update form when Slack answers 500 to the first update', async () => {
    const cardTs = await postedCard('Update when busy, Slack failing');
    await spendTheMinute();
    stack.double.failNext('views.update', 'internal_error', { status: 500 });
    await clickUpdate(cardTs);
    await eventually(
      () =>
        JSON.stringify(stack.double.workspace.modalStack(agent).at(-1)?.blocks).includes(
          'The service desk is busy',
        ),
      5_000,
      'the busy words in the form',
    );
  });

  it('reports, never swallows, a 429 from Slack on the Update form’s busy words', async () => {
    const cardTs = await postedCard('Update when busy, Slack limiting');
    await spendTheMinute();
    stack.double.failNext('views.update', 'ratelimited');
    const logged = stack.logs.length;
    await clickUpdate(cardTs);
    await eventually(
      () =>
        stack.logs
          .slice(logged)
          .some((l) => l.includes('fill-update-modal') && l.includes('"level":50')),
      5_000,
      'the failure reported',
    );
  });

  it('counts the budget refusals and the time waited in /metrics', async () => {
    const text = await metricsText(stack);
    expect(text).toMatch(
      /servicedesk_slack_people_refusals_total\{reason="budget",request="lookup"\} [1-9]/,
    );
    expect(text).toMatch(
      /servicedesk_slack_people_budget_wait_seconds_count\{outcome="refused"\} [1-9]/,
    );
  });
});

describe('a person’s fair share in the embedded mode (no Redis)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ embedded: true, budget: { perMinute: 40, perHour: 1_000 } });
  });
  afterAll(async () => {
    await stack.close();
  });

  it('holds one person’s burst to their share, in memory', async () => {
    const tickets = Array.from({ length: 6 }, (_, i) =>
      stack.emulator.model.createTicket('acme', {
        title: `Embedded ${i}`,
        requester_email: 'alice@acme.example',
      }),
    );
    const answers: string[] = [];
    for (const ticket of tickets) answers.push(await lookup(stack, alice, ticket.id));
    expect(answers.filter((a) => a.includes('Embedded'))).toHaveLength(5);
    expect(answers.at(-1)).toMatch(/try again in about \d+ (s|min)/);
  });
});
