/**
 * An agent's queue, end to end: the real app over HTTP, the Slack double and the emulator. Sam
 * (AGENT_EMAILS) sees the open tickets assigned to them and the unassigned ones on every desk,
 * whether the platform filters the list or ignores the filters; Assign to me from Home assigns
 * once; `/ticket queue` answers agents privately and tells anyone else it is for agents; Slack
 * refusing views.publish still ends with the Home published, or a logged error.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { defaultIds } from '../../tools/slack-double/index.ts';
import { eventually } from '../support/eventually.ts';
import { modalOpenedBy, type Stack, type StackOptions, startStack } from '../support/stack.ts';

const { agent: sam, alice, agentsPrivate, bob, itHelp } = defaultIds;
const SAM = 'sam.rivera@acme.example';

/** The ticket ids listed under each heading of a Home or message's blocks. */
function listed(blocks: readonly unknown[]): { assigned: string[]; unassigned: string[] } {
  const lists = { assigned: [] as string[], unassigned: [] as string[] };
  let into: string[] | undefined;
  for (const block of blocks) {
    const text = JSON.stringify(block);
    if (text.includes('*Assigned to me*')) into = lists.assigned;
    else if (text.includes('*Unassigned on my desks*')) into = lists.unassigned;
    else if ((block as { type: string }).type === 'section') {
      const id = /(?:\||\*)(IT-\d+)(?:>|\*) · /.exec(text)?.[1];
      if (id) into?.push(id);
    }
  }
  return { assigned: lists.assigned.sort(), unassigned: lists.unassigned.sort() };
}

/** What the queue should list, from the platform's own data. */
function expected(stack: Stack) {
  const all = stack.emulator.model.listTickets('acme', { page: 1, pageSize: 100 }).items;
  const open = all.filter((t) => t.status !== 'resolved' && t.status !== 'closed');
  return {
    assigned: open
      .filter((t) => t.assignee_email === SAM)
      .map((t) => t.id)
      .sort(),
    unassigned: open
      .filter((t) => !t.assignee_email)
      .map((t) => t.id)
      .sort(),
  };
}

describe('an agent’s queue', () => {
  let stack: Stack;
  afterEach(async () => {
    await stack?.close();
  });

  async function openHome(userId: string) {
    const before = stack.double.callsTo('views.publish').length;
    await stack.driver.appHomeOpened({ userId });
    await eventually(
      () => stack.double.callsTo('views.publish').length > before,
      5_000,
      'the Home published',
    );
    return eventually(() => stack.double.workspace.homeView(userId), 5_000, 'the Home');
  }

  describe.each([
    ['with the platform’s assignee and status filters', true],
    ['on a platform that ignores them', false],
  ] as const)('%s', (_name, ticketFilters) => {
    it('shows Sam the open tickets assigned to them and every unassigned one, and none other', async () => {
      const options: StackOptions = { emulator: { capabilities: { ticketFilters } } };
      stack = await startStack(options);
      const home = await openHome(sam);
      const want = expected(stack);
      expect(want.assigned.length).toBeGreaterThan(0);
      expect(want.unassigned.length).toBeGreaterThan(0);
      expect(listed(home.blocks)).toEqual(want);
      expect(JSON.stringify(home.blocks)).toContain(`"assign_to_me:${want.unassigned[0]}"`);
      // Read with the filters either way; the app checked what came back.
      expect(
        stack.platformRequests.filter((op) => op === 'listTickets').length,
      ).toBeLessThanOrEqual(2);
    });
  });

  it('shows a member of a desk’s private triage channel the unassigned tickets of that desk and its subdesks only', async () => {
    stack = await startStack({ deskTriageChannels: `it=${agentsPrivate}` });
    stack.double.workspace.addMember(agentsPrivate, bob);
    const home = await openHome(bob);
    const all = stack.emulator.model.listTickets('acme', { page: 1, pageSize: 100 }).items;
    const desks = new Map(all.map((t) => [t.id, t.desk_id]));
    const shown = listed(home.blocks);
    expect(shown.unassigned.length).toBeGreaterThan(0);
    expect(
      shown.unassigned.every((id) =>
        ['it', 'it-hardware', 'it-access'].includes(desks.get(id) ?? ''),
      ),
    ).toBe(true);
    expect(shown.unassigned).toEqual(
      expected(stack).unassigned.filter((id) => (desks.get(id) ?? '').startsWith('it')),
    );
  });

  it('keeps Alice’s Home her own tickets: no queue', async () => {
    stack = await startStack();
    const home = await openHome(alice);
    const text = JSON.stringify(home.blocks);
    expect(text).not.toContain('Assigned to me');
    expect(text).not.toContain('assign_to_me');
  });

  it('assigns a ticket once when Sam double-clicks Assign to me on Home, and lists it as theirs', async () => {
    stack = await startStack();
    const home = await openHome(sam);
    const ticketId = listed(home.blocks).unassigned[0] as string;
    const click = () =>
      stack.driver.blockAction({
        userId: sam,
        actionId: `assign_to_me:${ticketId}`,
        viewId: home.id,
      });
    const [first, second] = await Promise.all([click(), click()]);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    await eventually(
      () => stack.emulator.model.getTicket('acme', ticketId).assignee_email === SAM,
      5_000,
      'the assignment',
    );
    const republished = await eventually(
      () => {
        const view = stack.double.workspace.homeView(sam);
        return view && listed(view.blocks).assigned.includes(ticketId) ? view : undefined;
      },
      5_000,
      'the Home with the ticket assigned',
    );
    expect(listed(republished.blocks).unassigned).not.toContain(ticketId);
    // Long enough for a second assignment to land, were there one.
    await new Promise((r) => setTimeout(r, 300));
    const assignments = stack.emulator.model
      .listActivity('acme', ticketId)
      .filter((a) => a.type === 'assigned');
    expect(assignments).toHaveLength(1);
  });

  /** Alice files in #it-help; Sam takes it with its card's Assign to me. The ticket's id. */
  async function takeWithCard(title: string) {
    const modal = await modalOpenedBy(stack, alice, () =>
      stack.driver.slashCommand({ userId: alice, channelId: itHelp, text: '' }),
    );
    await stack.driver.viewSubmission({
      viewId: modal.id,
      userId: alice,
      values: { title_input: title },
    });
    const card = await eventually(
      () =>
        stack.double.workspace
          .messages(itHelp)
          .find((m) => JSON.stringify(m.blocks ?? []).includes(title)),
      5_000,
      'the card in the channel',
    );
    const ticketId = await eventually(
      () => stack.app.stores.links.ticketForThread(itHelp, card.ts),
      5_000,
      'the link',
    );
    await stack.driver.blockAction({
      userId: sam,
      actionId: 'assign_to_me',
      channelId: itHelp,
      messageTs: card.ts,
    });
    await eventually(
      () => stack.emulator.model.getTicket('acme', ticketId).assignee_email === SAM,
      5_000,
      'the assignment',
    );
    return ticketId;
  }

  it('lists a ticket Sam takes with a card’s Assign to me in their Home at once, with no second read of the queue', async () => {
    stack = await startStack();
    await openHome(sam);
    const listsBefore = stack.platformRequests.filter((op) => op === 'listTickets').length;
    // Filed after Sam's queue was read: the kept queue has not seen it.
    const ticketId = await takeWithCard('Docking station flickers');
    // The Home follows without being opened again (Slack shows the last publish for a while).
    await eventually(
      () => listed(stack.double.workspace.homeView(sam)?.blocks ?? []).assigned.includes(ticketId),
      5_000,
      'the Home with the ticket taken',
    );
    expect(stack.platformRequests.filter((op) => op === 'listTickets').length).toBe(listsBefore);
  });

  it('still assigns when Slack refuses the Home that follows an Assign to me, and says so in a warning', async () => {
    stack = await startStack();
    await openHome(sam);
    stack.double.failNext('views.publish', 'internal_error', { status: 500, times: 2 });
    const ticketId = await takeWithCard('Headset crackles');
    await eventually(
      () => stack.logs.some((l) => l.includes('App Home not published after Assign to me')),
      5_000,
      'the warning',
    );
    expect(listed(stack.double.workspace.homeView(sam)?.blocks ?? []).assigned).not.toContain(
      ticketId,
    );
    expect(stack.logs.filter((l) => l.includes('"level":50'))).toEqual([]);
  });

  it('answers /ticket queue privately for an agent', async () => {
    stack = await startStack();
    const command = await stack.driver.slashCommand({
      userId: sam,
      channelId: itHelp,
      text: 'queue',
    });
    const post = await stack.double.waitForResponseUrlPost(
      (p) => p.url === command.responseUrl,
      5_000,
    );
    const body = post.body as { response_type?: string; blocks?: unknown[] };
    expect(body.response_type).toBe('ephemeral');
    expect(listed(body.blocks ?? [])).toEqual(expected(stack));
  });

  it('assigns once from /ticket queue’s answer and shows the ticket as Sam’s in it', async () => {
    stack = await startStack();
    const command = await stack.driver.slashCommand({
      userId: sam,
      channelId: itHelp,
      text: 'queue',
    });
    const answer = await stack.double.waitForResponseUrlPost(
      (p) => p.url === command.responseUrl,
      5_000,
    );
    const ticketId = listed((answer.body as { blocks: unknown[] }).blocks).unassigned[0] as string;
    const click = () =>
      stack.driver.blockAction({
        userId: sam,
        actionId: `assign_to_me:${ticketId}`,
        channelId: itHelp,
        messageTs: answer.ts as string,
      });
    await Promise.all([click(), click()]);
    const replaced = await eventually(
      () => {
        const shown = stack.double.workspace.ephemeral(answer.ts as string);
        return shown && listed(shown.blocks ?? []).assigned.includes(ticketId) ? shown : undefined;
      },
      5_000,
      'the answer with the ticket assigned',
    );
    expect(listed(replaced.blocks ?? []).unassigned).not.toContain(ticketId);
    await new Promise((r) => setTimeout(r, 300));
    const assignments = stack.emulator.model
      .listActivity('acme', ticketId)
      .filter((a) => a.type === 'assigned');
    expect(assignments).toHaveLength(1);
  });

  it('tells someone who is not an agent privately that /ticket queue is for agents', async () => {
    stack = await startStack();
    const command = await stack.driver.slashCommand({
      userId: alice,
      channelId: itHelp,
      text: 'queue',
    });
    const post = await stack.double.waitForResponseUrlPost(
      (p) => p.url === command.responseUrl,
      5_000,
    );
    const text = JSON.stringify(post.body);
    expect(text).toContain('is for service-desk agents');
    expect(text).toContain('"response_type":"ephemeral"');
    expect(stack.platformRequests).not.toContain('listTickets');
  });

  it('publishes the Home once Slack’s Retry-After on views.publish has passed', async () => {
    stack = await startStack();
    stack.double.failNext('views.publish', 'ratelimited', { retryAfterSec: 1 });
    await stack.driver.appHomeOpened({ userId: sam });
    const home = await eventually(() => stack.double.workspace.homeView(sam), 5_000, 'the Home');
    expect(listed(home.blocks)).toEqual(expected(stack));
    const calls = stack.double.callsTo('views.publish');
    expect(calls.filter((c) => c.injected)).toHaveLength(1);
    expect(calls.filter((c) => !c.injected)).toHaveLength(1);
    const [limited, published] = calls;
    expect((published?.at ?? 0) - (limited?.at ?? 0)).toBeGreaterThanOrEqual(900);
  });

  it('publishes the Home through one 500 from views.publish, and logs an error when Slack keeps failing', async () => {
    stack = await startStack();
    stack.double.failNext('views.publish', 'internal_error', { status: 500 });
    await stack.driver.appHomeOpened({ userId: sam });
    await eventually(() => stack.double.workspace.homeView(sam), 5_000, 'the Home');

    stack.double.failNext('views.publish', 'internal_error', { status: 500, times: 2 });
    await stack.driver.appHomeOpened({ userId: alice });
    await eventually(
      () =>
        stack.logs.some((l) => l.includes('"task":"publish-app-home"') && l.includes('"level":50')),
      5_000,
      'the logged error',
    );
    expect(stack.double.workspace.homeView(alice)).toBeUndefined();
  });
});
