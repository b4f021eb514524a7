/**
 * Service-level clocks on cards end to end: the real app over HTTP, the emulator as the
 * platform (its clocks on, or off with SLA_TARGETS instead) and the Slack double. A triage card
 * shows the ticket's clocks; with the app's clock moved past 80% of the first response's time
 * and then past its due time, the card refreshed by the ticket's next change turns ⚠️ then 🔴.
 * An agent's own /ticket card shows the clocks; a requester's cards and lookups never do.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Ticket } from '../../src/contract/schemas.ts';
import { AdaptivePlanner } from '../../src/mirror/index.ts';
import { CARD_BLOCKS, TRIAGE_CARD_BLOCKS } from '../../src/slack/ids.ts';
import { defaultIds } from '../../tools/slack-double/index.ts';
import { eventually } from '../support/eventually.ts';
import { ROUTED_DESK, type Stack, type StackOptions, startStack } from '../support/stack.ts';

const { alice, agent, itHelp, agentsPrivate } = defaultIds;
const SECRET = 'whsec-e2e-clocks-0123456789abcdef';
const MIN = 60_000;

describe('service-level clocks on cards', () => {
  let stack: Stack | undefined;
  // The app's clock: real time moved by what a test adds, so no test waits for a target.
  let shiftMs = 0;
  afterEach(async () => {
    await stack?.close();
    stack = undefined;
    shiftMs = 0;
  });

  async function start(options: StackOptions): Promise<Stack> {
    const started = await startStack({
      webhookSecret: SECRET,
      mirror: { planner: new AdaptivePlanner() },
      now: () => Date.now() + shiftMs,
      ...options,
    });
    stack = started;
    started.emulator.setWebhooks({ announceCreated: true });
    await started.app.stores.triageChannels.set(ROUTED_DESK, agentsPrivate);
    // The feed marks when it first saw the channels; tickets before that get no card.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    return started;
  }

  const cardOf = (s: Stack, ticketId: string) =>
    s.double.workspace
      .messages(agentsPrivate)
      .find(
        (m) =>
          m.metadata?.event_type === 'triage_card' &&
          m.metadata.event_payload?.ticket_id === ticketId,
      );

  const clocksOf = (blocks: unknown, blockId: string) =>
    JSON.stringify(
      ((blocks ?? []) as { block_id?: string }[]).find((b) => b.block_id === blockId) ?? null,
    );

  // The triage card's clock block once it reads `expected`.
  const triageClocks = (s: Stack, ticketId: string, expected: string) =>
    eventually(
      () => {
        const text = clocksOf(cardOf(s, ticketId)?.blocks, TRIAGE_CARD_BLOCKS.clocks);
        return text.includes(expected) ? text : undefined;
      },
      15_000,
      `the card of ${ticketId} showing ${expected}`,
    );

  const urgentTicket = (s: Stack): Ticket =>
    s.emulator.model.createTicket('acme', {
      title: 'Clocks: the payroll server is down',
      desk_id: ROUTED_DESK,
      priority: 'urgent',
      requester_email: 'bob@acme.example',
      channel: 'portal',
    });

  const dueToken = (ms: number) => `<!date^${Math.floor(ms / 1000)}^`;

  for (const mode of [
    { name: 'the platform’s own clocks', options: {} },
    {
      name: 'SLA_TARGETS on a platform without clocks',
      options: {
        emulator: { capabilities: { serviceLevels: false } },
        slaTargets: 'it:urgent=15m/4h,*:medium=4h/3d',
      },
    },
  ] as const) {
    it(`shows a triage card's clocks and turns them ⚠️ at 80% and 🔴 at the due time, from ${mode.name}`, async () => {
      const s = await start(mode.options);
      const ticket = urgentTicket(s);
      const created = Date.parse(ticket.created_at);
      const running = await triageClocks(s, ticket.id, ':clock3: First response due');
      expect(running).toContain(dueToken(created + 15 * MIN));
      expect(running).toContain(':clock3: Resolution due');
      // 13 of 15 minutes gone: past 80%. The next change of the ticket refreshes its card.
      shiftMs = 13 * MIN;
      s.emulator.model.updateTicket('acme', ticket.id, { team: 'Hardware' });
      await triageClocks(s, ticket.id, ':warning: First response due');
      shiftMs = 16 * MIN;
      s.emulator.model.updateTicket('acme', ticket.id, { team: 'IT Support' });
      const breached = await triageClocks(s, ticket.id, ':red_circle: First response breached');
      expect(breached).toContain(':clock3: Resolution due');
    });
  }

  it('shows a clock only on tickets whose desk and priority SLA_TARGETS names', async () => {
    const s = await start({
      emulator: { capabilities: { serviceLevels: false } },
      slaTargets: 'it:urgent=15m/4h',
    });
    const urgent = urgentTicket(s);
    const low = s.emulator.model.createTicket('acme', {
      title: 'Clocks: a new mouse pad, some day',
      desk_id: ROUTED_DESK,
      priority: 'low',
      requester_email: 'bob@acme.example',
      channel: 'portal',
    });
    await triageClocks(s, urgent.id, 'First response due');
    await eventually(() => cardOf(s, low.id), 15_000, 'the triage card of the low ticket');
    expect(clocksOf(cardOf(s, low.id)?.blocks, TRIAGE_CARD_BLOCKS.clocks)).toBe('null');
  });

  it("shows the clocks on an agent's /ticket card and never on the requester's cards or lookup", async () => {
    const s = await start({});
    // Alice files in #it-help: her ticket's card in the channel is everyone's.
    const parent = await s.driver.userPosts({
      userId: alice,
      channelId: itHelp,
      text: 'Clocks: my monitor flickers',
    });
    await s.driver.userReacts({
      userId: alice,
      channelId: itHelp,
      ts: parent.ts,
      reaction: 'ticket',
    });
    const ticketId = await eventually(
      () => s.app.stores.links.ticketForThread(itHelp, parent.ts),
      5_000,
      'the link',
    );
    // The clocks exist: the triage card shows them.
    await triageClocks(s, ticketId, 'First response due');

    const lookup = async (userId: string) => {
      const command = await s.driver.slashCommand({ userId, channelId: itHelp, text: ticketId });
      const post = await s.double.waitForResponseUrlPost(
        (p) => p.url === command.responseUrl,
        5_000,
      );
      return post.body as { blocks?: unknown[] };
    };
    const samsCard = await lookup(agent);
    expect(clocksOf(samsCard.blocks, CARD_BLOCKS.clocks)).toContain('First response due');
    const alicesCard = await lookup(alice);
    expect(JSON.stringify(alicesCard)).toContain(ticketId);
    expect(JSON.stringify(alicesCard)).not.toMatch(/due|breached|Paused|clocks/);

    // Everything in #it-help, her ticket's card and thread included: no clock.
    await eventually(
      () => (s.double.workspace.thread(itHelp, parent.ts) ?? []).length > 1 || undefined,
      5_000,
      'the card in the thread',
    );
    const channel = JSON.stringify([
      ...s.double.workspace.messages(itHelp),
      ...(s.double.workspace.thread(itHelp, parent.ts) ?? []),
    ]);
    expect(channel).toContain(ticketId);
    expect(channel).not.toMatch(/First response|Resolution due|clocks/);
  });

  it("shows no clock on the card in the requester's direct message", async () => {
    const s = await start({});
    const dm = s.double.workspace.openIm(alice);
    const sent = await s.driver.userPosts({
      userId: alice,
      channelId: dm,
      text: 'Clocks: my keyboard types twice',
    });
    const ticketId = await eventually(
      () => s.app.stores.links.ticketForThread(dm, sent.ts),
      5_000,
      'the link',
    );
    // The ticket has clocks (the platform's, on a desk-less ticket too), and the DM still none.
    expect(s.emulator.model.getTicket('acme', ticketId).first_response_due_at).toBeTruthy();
    const dmText = await eventually(
      () => {
        const text = JSON.stringify([
          ...s.double.workspace.messages(dm),
          ...(s.double.workspace.thread(dm, sent.ts) ?? []),
        ]);
        return text.includes(`*${ticketId}*`) ? text : undefined;
      },
      5_000,
      'the card in the DM',
    );
    expect(dmText).not.toMatch(/First response|Resolution due|clocks/);
  });
});
