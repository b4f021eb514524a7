/**
 * The requester's "your ticket was resolved" direct message, end to end with the mirror: its
 * Reopen button goes, with a line saying the ticket was reopened, once the ticket is open
 * again, whoever reopened it.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultIds, type SlackMessage } from '../../tools/slack-double/index.ts';
import { eventually } from '../support/eventually.ts';
import { QUICK_PLANNER, type Stack, startStack, ticketsOf } from '../support/stack.ts';

const { alice, itHelp } = defaultIds;

describe('the requester’s “resolved” notice', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      budget: { perMinute: 5_000, perHour: 50_000 },
      mirror: { planner: QUICK_PLANNER },
      // Each test files by DM after an earlier one's resolution: a new request each time.
      reopenWindow: '0',
    });
  });
  afterAll(async () => {
    await stack?.close();
  });

  const blocksOf = (message: SlackMessage | undefined) => JSON.stringify(message?.blocks ?? []);

  /** Alice files a ticket from her DM with the app; the service desk resolves it. */
  async function resolvedTicket(text: string) {
    const dm = stack.double.workspace.openIm(alice);
    const sent = await stack.driver.userPosts({ userId: alice, channelId: dm, text });
    const ticketId = await eventually(
      () => stack.app.stores.links.ticketForThread(dm, sent.ts),
      10_000,
      'the ticket linked to the DM thread',
    );
    stack.emulator.model.updateTicket('acme', ticketId, { status: 'resolved' });
    const notice = await eventually(
      () =>
        stack.double.workspace
          .messages(dm)
          .find((m) => m.text.includes(`${ticketId}`) && m.text.includes('was resolved')),
      10_000,
      'the notice',
    );
    expect(blocksOf(notice)).toContain('"action_id":"reopen_ticket"');
    return { dm, threadTs: sent.ts, ticketId, noticeTs: notice.ts };
  }

  const noticeWithoutReopen = (filed: { dm: string; noticeTs: string }) =>
    eventually(
      () => {
        const now = stack.double.workspace.message(filed.dm, filed.noticeTs);
        return now && !blocksOf(now).includes('reopen_ticket') ? now : undefined;
      },
      10_000,
      'the notice without its Reopen',
    );

  it('takes Reopen off the notice, saying it was reopened, once the service desk reopens the ticket', async () => {
    const filed = await resolvedTicket('Laptop will not wake from sleep');
    stack.emulator.model.updateTicket('acme', filed.ticketId, { status: 'in_progress' });
    const notice = await noticeWithoutReopen(filed);
    expect(blocksOf(notice)).toContain(`${filed.ticketId} was reopened`);
    expect(blocksOf(notice)).toContain('was resolved');
  });

  it('takes Reopen off the notice once the requester’s reply in the thread reopens the ticket', async () => {
    const filed = await resolvedTicket('Monitor goes blank');
    await stack.driver.userPosts({
      userId: alice,
      channelId: filed.dm,
      text: 'It went blank again',
      threadTs: filed.threadTs,
    });
    await eventually(
      () => stack.emulator.model.getTicket('acme', filed.ticketId).status === 'open',
      10_000,
      'reopened by the reply',
    );
    const notice = await noticeWithoutReopen(filed);
    expect(blocksOf(notice)).toContain(`${filed.ticketId} was reopened`);
  });

  it('takes Reopen off the notice at the ticket’s next change when Slack answered 429 to the update', async () => {
    const filed = await resolvedTicket('Printer prints blank pages');
    const onNotice = (args: Record<string, unknown>) => args.ts === filed.noticeTs;
    stack.double.failNext('chat.update', 'ratelimited', { when: onNotice });
    stack.emulator.model.updateTicket('acme', filed.ticketId, { status: 'open' });
    await eventually(
      () =>
        stack.double
          .callsTo('chat.update')
          .some((call) => call.args.ts === filed.noticeTs && call.status === 429),
      10_000,
      'the refused update',
    );
    expect(blocksOf(stack.double.workspace.message(filed.dm, filed.noticeTs))).toContain(
      'reopen_ticket',
    );
    // The next change after Slack's Retry-After (1 s): within it the app makes no chat.update.
    await new Promise((r) => setTimeout(r, 1_100));
    stack.emulator.model.updateTicket('acme', filed.ticketId, { priority: 'high' });
    const notice = await noticeWithoutReopen(filed);
    expect(blocksOf(notice)).toContain(`${filed.ticketId} was reopened`);
  });

  it('takes Reopen off the notice at the ticket’s next change when Slack failed the read of it with a 500', async () => {
    const filed = await resolvedTicket('Scanner is offline');
    const onNotice = (args: Record<string, unknown>) => args.latest === filed.noticeTs;
    stack.double.failNext('conversations.history', 'internal_error', {
      status: 500,
      when: onNotice,
    });
    stack.emulator.model.updateTicket('acme', filed.ticketId, { status: 'open' });
    await eventually(
      () =>
        stack.double
          .callsTo('conversations.history')
          .some((call) => call.args.latest === filed.noticeTs),
      10_000,
      'the failed read',
    );
    stack.emulator.model.updateTicket('acme', filed.ticketId, { priority: 'high' });
    const notice = await noticeWithoutReopen(filed);
    expect(blocksOf(notice)).toContain(`${filed.ticketId} was reopened`);
  });

  it('shows a reply in the notice’s thread, and the Resolved → Open line, once in the ticket’s channel thread', async () => {
    const parent = await stack.driver.userPosts({
      userId: alice,
      channelId: itHelp,
      text: 'Docking station drops the second screen',
    });
    await stack.driver.userReacts({
      userId: alice,
      channelId: itHelp,
      ts: parent.ts,
      reaction: 'ticket',
    });
    const ticketId = await eventually(
      () => stack.app.stores.links.ticketForThread(itHelp, parent.ts),
      10_000,
      'the ticket linked to the channel thread',
    );
    stack.emulator.model.updateTicket('acme', ticketId, { status: 'resolved' });
    const dm = stack.double.workspace.openIm(alice);
    const notice = await eventually(
      () =>
        stack.double.workspace
          .messages(dm)
          .find((m) => m.text.includes(ticketId) && m.text.includes('was resolved')),
      10_000,
      'the notice',
    );
    const channelThread = () => stack.double.workspace.thread(itHelp, parent.ts) ?? [];
    await eventually(
      () => channelThread().some((m) => /status: .* → .*Resolved/.test(m.text ?? '')),
      10_000,
      'the resolution in the channel thread',
    );

    await stack.driver.userPosts({
      userId: alice,
      channelId: dm,
      text: 'The second screen dropped again',
      threadTs: notice.ts,
    });
    await eventually(
      () => stack.emulator.model.getTicket('acme', ticketId).status === 'open',
      10_000,
      'reopened by the reply',
    );
    const words = (m: SlackMessage) =>
      JSON.stringify(m).includes('The second screen dropped again');
    const reopened = (m: SlackMessage) => /status: .*Resolved → .*Open/.test(m.text ?? '');
    await eventually(
      () => channelThread().some(words) && channelThread().some(reopened),
      15_000,
      'her words and the reopening in the channel thread',
    );
    // Settled: a later look at the ticket posts neither again, anywhere.
    stack.emulator.model.updateTicket('acme', ticketId, { priority: 'high' });
    await eventually(
      () => channelThread().some((m) => /priority/i.test(m.text ?? '')),
      10_000,
      'a later change',
    );
    expect(channelThread().filter(words)).toHaveLength(1);
    expect(channelThread().filter(reopened)).toHaveLength(1);
    const noticeThread = stack.double.workspace.thread(dm, notice.ts) ?? [];
    expect(noticeThread.filter(words)).toHaveLength(1);
    expect(noticeThread.filter(reopened)).toHaveLength(0);
  });

  describe('a direct message soon after a resolution', () => {
    // Each on a stack of its own: a resolution asks about every direct message after it.
    let outer: Stack;
    beforeEach(async () => {
      outer = stack;
      stack = await startStack({
        budget: { perMinute: 5_000, perHour: 50_000 },
        mirror: { planner: QUICK_PLANNER },
      });
    });
    afterEach(async () => {
      await stack.close();
      stack = outer;
    });
    const ALICE = 'alice@acme.example';
    const question = (ticketId: string) =>
      eventually(
        () =>
          stack.double.workspace
            .ephemerals({ user: alice })
            .find((e) => e.text.includes(`${ticketId} was resolved lately`)),
        10_000,
        'the private question',
      );

    it('asks privately, and Reopen puts the words on the resolved ticket and reopens it', async () => {
      const filed = await resolvedTicket('Outlook keeps asking for my password');
      const before = stack.emulator.model.ticketCount('acme');
      const sent = await stack.driver.userPosts({
        userId: alice,
        channelId: filed.dm,
        text: 'still broken',
      });
      const asked = await question(filed.ticketId);
      expect(JSON.stringify(asked.blocks)).toContain('still broken');
      expect(JSON.stringify(asked.blocks)).toContain(`Reopen ${filed.ticketId}`);
      expect(stack.emulator.model.ticketCount('acme')).toBe(before);

      const click = () =>
        stack.driver.blockAction({
          userId: alice,
          actionId: 'resolved_follow_up_reopen',
          channelId: filed.dm,
          messageTs: asked.ts,
        });
      // A double click: both reach the app before the question is replaced.
      await Promise.all([click(), click()]);
      await eventually(
        () => stack.emulator.model.getTicket('acme', filed.ticketId).status === 'open',
        10_000,
        'the ticket reopened',
      );
      const words = () =>
        stack.emulator.model
          .listMessages('acme', filed.ticketId)
          .filter((m) => m.body === 'still broken');
      await eventually(() => words().length === 1, 10_000, 'the words on the ticket');
      // Its first thread, where she filed it, shows her words too.
      await eventually(
        () =>
          (stack.double.workspace.thread(filed.dm, filed.threadTs) ?? []).some((m) =>
            JSON.stringify(m).includes('still broken'),
          ),
        15_000,
        'her words in the ticket’s thread',
      );
      await stack.app.slack.worker.runOnce();
      expect(words()).toHaveLength(1);
      expect(stack.emulator.model.ticketCount('acme')).toBe(before);
      expect(await stack.app.stores.links.ticketForThread(filed.dm, sent.ts)).toBe(filed.ticketId);
    });

    it('files the message as a new ticket, once, on File as a new ticket', async () => {
      const filed = await resolvedTicket('Teams crashes on start');
      await stack.driver.userPosts({
        userId: alice,
        channelId: filed.dm,
        text: 'Printer in room 4 jams',
      });
      const asked = await question(filed.ticketId);
      const click = (actionId: string) =>
        stack.driver.blockAction({
          userId: alice,
          actionId,
          channelId: filed.dm,
          messageTs: asked.ts,
        });
      // A double click, and the other button too, before the question is replaced.
      await Promise.all([
        click('resolved_follow_up_new_ticket'),
        click('resolved_follow_up_new_ticket'),
        click('resolved_follow_up_reopen'),
      ]);
      await eventually(
        () => ticketsOf(stack, ALICE).some((t) => t.title === 'Printer in room 4 jams'),
        10_000,
        'the new ticket',
      );
      await stack.app.slack.worker.runOnce();
      expect(
        ticketsOf(stack, ALICE).filter((t) => t.title === 'Printer in room 4 jams'),
      ).toHaveLength(1);
      expect(stack.emulator.model.getTicket('acme', filed.ticketId).status).toBe('resolved');
      expect(
        stack.emulator.model
          .listMessages('acme', filed.ticketId)
          .some((m) => m.body.includes('Printer in room 4')),
      ).toBe(false);
    });

    it('keeps the question when Slack does not answer the read of the message, and the next click works', async () => {
      const filed = await resolvedTicket('Laptop fan is loud');
      await stack.driver.userPosts({ userId: alice, channelId: filed.dm, text: 'louder today' });
      const asked = await question(filed.ticketId);
      const click = () =>
        stack.driver.blockAction({
          userId: alice,
          actionId: 'resolved_follow_up_reopen',
          channelId: filed.dm,
          messageTs: asked.ts,
        });
      stack.double.failNext('conversations.replies', 'internal_error');
      await click();
      await eventually(
        () =>
          stack.double.workspace
            .ephemerals({ user: alice })
            .some((e) => e.text.includes('Slack did not answer just now')),
        10_000,
        'the private word that nothing was done yet',
      );
      expect(stack.emulator.model.getTicket('acme', filed.ticketId).status).toBe('resolved');
      await click();
      await eventually(
        () =>
          stack.emulator.model
            .listMessages('acme', filed.ticketId)
            .some((m) => m.body === 'louder today'),
        10_000,
        'the words on the ticket',
      );
    });

    it('asks once Slack takes the question after answering 500', async () => {
      const filed = await resolvedTicket('Mouse double clicks');
      stack.double.failNext('chat.postEphemeral', 'internal_error', { status: 500, times: 3 });
      await stack.driver.userPosts({ userId: alice, channelId: filed.dm, text: 'it is back' });
      await question(filed.ticketId);
      expect(ticketsOf(stack, ALICE).some((t) => t.title === 'it is back')).toBe(false);
    });

    it('files the message as a new ticket, as before, when Slack refuses the question for good', async () => {
      const filed = await resolvedTicket('Screen is yellowish');
      stack.double.failNext('chat.postEphemeral', 'user_not_in_channel');
      const sent = await stack.driver.userPosts({
        userId: alice,
        channelId: filed.dm,
        text: 'Need a second monitor',
      });
      const ticket = await eventually(
        () => ticketsOf(stack, ALICE).find((t) => t.title === 'Need a second monitor'),
        10_000,
        'the message filed as a new ticket',
      );
      await eventually(
        async () => (await stack.app.stores.links.ticketForThread(filed.dm, sent.ts)) === ticket.id,
        10_000,
        'its thread linked',
      );
    });

    it('says in the notice that a reply here or in its thread reaches the ticket', async () => {
      const filed = await resolvedTicket('Wi-Fi drops every hour');
      const notice = stack.double.workspace.message(filed.dm, filed.noticeTs);
      expect(notice?.text).toContain('reply here or in its thread');
    });
  });
});
