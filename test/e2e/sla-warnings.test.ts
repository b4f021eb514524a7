/**
 * Service-level warnings end to end: the real app over HTTP against the emulator (webhooks on,
 * new tickets announced) and the Slack double, with SLA_TARGETS (first response in 10 minutes)
 * and a clock the test moves forward instead of waiting. A ticket with a triage card gets one
 * warning line at 8 minutes and one breach line at 10 in its triage thread, and one breach
 * notice at the top of the triage channel mentioning the desk's on-call group, across two
 * replicas, a restart and Slack failing; a ticket answered in time or without a card gets none.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { defaultIds, type SlackMessage } from '../../tools/slack-double/index.ts';
import { eventually } from '../support/eventually.ts';
import { QUICK_PLANNER, ROUTED_DESK, type Stack, startStack } from '../support/stack.ts';

const { agentsPrivate } = defaultIds;
const SAM = 'sam.rivera@acme.example';
const SECRET = 'whsec-e2e-sla-0123456789abcdef';
const MIN = 60_000;
const ONCALL = 'S0ITONCALL';

describe('service-level warnings', () => {
  let stack: Stack;
  // The app's clock: real time, plus what the test moved it forward by.
  const skew = { ms: 0 };
  const now = () => Date.now() + skew.ms;
  afterEach(async () => {
    await stack?.close();
    skew.ms = 0;
  });

  async function start(options: { clockRetryMs?: number; platformClocks?: boolean } = {}) {
    stack = await startStack({
      webhookSecret: SECRET,
      mirror: { planner: QUICK_PLANNER },
      // The platform's own clocks win over SLA_TARGETS: most tests run on a platform without.
      emulator: { capabilities: { serviceLevels: options.platformClocks ?? false } },
      slaTargets: '*:*=10m/-',
      deskOncallGroups: `${ROUTED_DESK}=${ONCALL}`,
      now,
      clockRetryMs: options.clockRetryMs ?? 200,
    });
    stack.emulator.setWebhooks({ announceCreated: true });
    await stack.app.stores.triageChannels.set(ROUTED_DESK, agentsPrivate);
    // The feed marks when it first saw the channel; tickets before that get no card.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
  }

  const cardOf = (ticketId: string) =>
    eventually(
      () =>
        stack.double.workspace
          .messages(agentsPrivate)
          .find(
            (m) =>
              m.metadata?.event_type === 'triage_card' &&
              m.metadata.event_payload?.ticket_id === ticketId,
          ),
      10_000,
      `the triage card of ${ticketId}`,
    );

  const item = (m: SlackMessage) => m.metadata?.event_payload?.message_id;
  const linesIn = (card: SlackMessage, itemId: string) =>
    (stack.double.workspace.thread(agentsPrivate, card.ts) ?? []).filter(
      (m) => m.ts !== card.ts && item(m) === itemId,
    );
  const noticesOf = (ticketId: string) =>
    stack.double.workspace
      .history(agentsPrivate)
      .filter(
        (m) =>
          item(m) === 'sla:first_response:breach' &&
          m.metadata?.event_payload?.ticket_id === ticketId,
      );
  const anyWarningAnywhere = () =>
    stack.double.calls.some(
      (call) =>
        call.method === 'chat.postMessage' &&
        String(JSON.stringify(call.args ?? {})).includes('sla:first_response'),
    );

  function newTicket(title: string) {
    return stack.emulator.model.createTicket('acme', {
      title,
      desk_id: ROUTED_DESK,
      requester_email: 'bob@acme.example',
      channel: 'email',
    });
  }

  /** Moves the app's clock to `offsetMs` after the ticket was created. */
  function moveTo(ticket: { created_at: string }, offsetMs: number) {
    skew.ms = Math.max(skew.ms, Date.parse(ticket.created_at) + offsetMs - Date.now());
  }

  it('posts one warning line, one breach line and one breach notice across two replicas and a restart', async () => {
    await start();
    const second = await stack.addReplica();
    const ticket = newTicket('SLA: printer on fire');
    const card = await cardOf(ticket.id);

    moveTo(ticket, 8 * MIN + 1_000);
    const [warning] = await eventually(
      () =>
        linesIn(card, 'sla:first_response:warning').length
          ? linesIn(card, 'sla:first_response:warning')
          : undefined,
      10_000,
      'the warning line',
    );
    expect(warning?.text).toContain(':warning: First response due');
    expect(warning?.text).toContain(`*${ticket.id}* is unassigned`);
    // A replica restarts: what was posted stays posted.
    await second.stop();
    await stack.addReplica();
    moveTo(ticket, 10 * MIN + 1_000);
    const [notice] = await eventually(
      () => (noticesOf(ticket.id).length ? noticesOf(ticket.id) : undefined),
      10_000,
      'the breach notice',
    );
    await eventually(
      () => linesIn(card, 'sla:first_response:breach').length > 0,
      5_000,
      'the breach line',
    );
    expect(notice?.text).toContain(`<!subteam^${ONCALL}>`);
    expect(notice?.text).toContain('unassigned');
    expect(notice?.text).toContain(ticket.id);
    // Looks come and go on three processes meanwhile: still one of each.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(linesIn(card, 'sla:first_response:warning')).toHaveLength(1);
    expect(linesIn(card, 'sla:first_response:breach')).toHaveLength(1);
    expect(noticesOf(ticket.id)).toHaveLength(1);
  });

  it("turns the card's clock ⚠️ at the warning and 🔴 at the breach, from the platform's own clocks", async () => {
    await start({ platformClocks: true });
    // The emulator's demo policy: an urgent ticket's first response is due in 15 minutes.
    const ticket = stack.emulator.model.createTicket('acme', {
      title: 'SLA: the VPN is down for everyone',
      desk_id: ROUTED_DESK,
      priority: 'urgent',
      requester_email: 'bob@acme.example',
      channel: 'email',
    });
    const card = await cardOf(ticket.id);
    const clocksOf = () => {
      const now = stack.double.workspace.messages(agentsPrivate).find((m) => m.ts === card.ts);
      return JSON.stringify(
        (now?.blocks ?? []).find(
          (b) => (b as { block_id?: string }).block_id === 'triage_card_clocks',
        ),
      );
    };
    expect(clocksOf()).toContain(':clock3: First response due');

    moveTo(ticket, 12 * MIN + 1_000);
    await eventually(
      () => linesIn(card, 'sla:first_response:warning').length > 0,
      10_000,
      'the warning line',
    );
    await eventually(
      () => clocksOf().includes(':warning: First response due'),
      10_000,
      'the card ⚠️',
    );

    moveTo(ticket, 15 * MIN + 1_000);
    await eventually(() => noticesOf(ticket.id).length > 0, 10_000, 'the breach notice');
    await eventually(
      () => clocksOf().includes(':red_circle: First response breached'),
      10_000,
      'the card 🔴',
    );
    expect(linesIn(card, 'sla:first_response:warning')).toHaveLength(1);
  });

  it('posts the warning, the breach line and the notice once each when Slack answers them with 429 and 500', async () => {
    await start();
    const ticket = newTicket('SLA: scanner jams');
    const card = await cardOf(ticket.id);
    stack.double.failNext('chat.postMessage', 'ratelimited', { retryAfterSec: 1 });
    stack.double.failNext('chat.postMessage', 'internal_error', { status: 500, times: 2 });
    moveTo(ticket, 8 * MIN + 1_000);
    await eventually(
      () => linesIn(card, 'sla:first_response:warning').length > 0,
      15_000,
      'the warning line',
    );
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(linesIn(card, 'sla:first_response:warning')).toHaveLength(1);
    // Slack refused the warning itself three times, and the fourth try posted it.
    const refused = stack.double
      .callsTo('chat.postMessage')
      .filter((call) => call.injected)
      .map((call) => JSON.stringify(call.args).includes('sla:first_response:warning'));
    expect(refused).toEqual([true, true, true]);

    // At the breach Slack fails again: the line and the channel's notice still come once each.
    stack.double.failNext('chat.postMessage', 'internal_error', { status: 500, times: 2 });
    stack.double.failNext('chat.postMessage', 'ratelimited', { retryAfterSec: 1 });
    moveTo(ticket, 10 * MIN + 1_000);
    await eventually(
      () =>
        noticesOf(ticket.id).length > 0 && linesIn(card, 'sla:first_response:breach').length > 0,
      15_000,
      'the breach line and notice',
    );
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(linesIn(card, 'sla:first_response:breach')).toHaveLength(1);
    expect(noticesOf(ticket.id)).toHaveLength(1);
  });

  it('names the assignee with a mention, and posts nothing once answered, resolved or waiting on the requester', async () => {
    await start();
    const answered = newTicket('SLA: answered in time');
    const assigned = newTicket('SLA: Sam has it');
    const resolved = newTicket('SLA: fixed itself');
    const waiting = newTicket('SLA: waiting on Bob');
    const answeredCard = await cardOf(answered.id);
    const assignedCard = await cardOf(assigned.id);
    const quiet = [answered, resolved, waiting];
    for (const ticket of [resolved, waiting]) await cardOf(ticket.id);
    stack.emulator.model.updateTicket('acme', assigned.id, { assignee_email: SAM }, SAM);
    stack.emulator.model.updateTicket('acme', resolved.id, { status: 'resolved' }, SAM);
    stack.emulator.model.updateTicket('acme', waiting.id, { status: 'waiting_on_requester' }, SAM);
    stack.emulator.model.addAgentReply('acme', answered.id, { agentEmail: SAM, body: 'On it' });
    // The mirror brings the status changes into the triage threads: it has read them.
    for (const ticket of [resolved, waiting]) {
      const card = await cardOf(ticket.id);
      await eventually(
        () =>
          (stack.double.workspace.thread(agentsPrivate, card.ts) ?? []).some(
            (m) => m.ts !== card.ts && m.text?.includes(ticket.id),
          ),
        15_000,
        `the status line of ${ticket.id}`,
      );
    }
    // The mirror brings the answer into the triage thread: it has read it.
    await eventually(
      () =>
        (stack.double.workspace.thread(agentsPrivate, answeredCard.ts) ?? []).some((m) =>
          m.text?.includes('On it'),
        ),
      15_000,
      'the answer mirrored',
    );
    for (const ticket of [...quiet, assigned]) moveTo(ticket, 10 * MIN + 1_000);
    const [notice] = await eventually(
      () => (noticesOf(assigned.id).length ? noticesOf(assigned.id) : undefined),
      10_000,
      'the breach notice of the assigned ticket',
    );
    expect(notice?.text).toMatch(/assigned to <@U[A-Z0-9]+>/);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(linesIn(answeredCard, 'sla:first_response:breach')).toEqual([]);
    for (const ticket of quiet) {
      const card = await cardOf(ticket.id);
      expect(linesIn(card, 'sla:first_response:warning')).toEqual([]);
      expect(linesIn(card, 'sla:first_response:breach')).toEqual([]);
      expect(noticesOf(ticket.id)).toEqual([]);
    }
    expect(linesIn(assignedCard, 'sla:first_response:breach')).toHaveLength(1);
  });

  it('posts nothing for a ticket whose desk has no triage channel', async () => {
    await start();
    const ticket = stack.emulator.model.createTicket('acme', {
      title: 'SLA: no triage here',
      desk_id: 'hr',
      requester_email: 'bob@acme.example',
      channel: 'email',
    });
    moveTo(ticket, 10 * MIN + 1_000);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(anyWarningAnywhere()).toBe(false);
  });
});
