/**
 * The requester's "your ticket was resolved" direct message, end to end with the mirror: its
 * Reopen button goes, with a line saying the ticket was reopened, once the ticket is open
 * again, whoever reopened it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultIds, type SlackMessage } from '../../tools/slack-double/index.ts';
import { eventually } from '../support/eventually.ts';
import { QUICK_PLANNER, type Stack, startStack } from '../support/stack.ts';

const { alice } = defaultIds;

describe('the requester’s “resolved” notice', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      budget: { perMinute: 5_000, perHour: 50_000 },
      mirror: { planner: QUICK_PLANNER },
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
});
