/**
 * A thread belongs to one ticket: a 🎫 or the message shortcut on a ticket's card, on a reply
 * in its thread or on the app's own posts there files nothing, keeps the thread with its ticket
 * and tells the person privately which ticket the thread is, with a button to file the message
 * as their own ticket (its card in their DM). The real app over HTTP, the Slack double, the
 * emulator and Redis.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultIds } from '../../tools/slack-double/index.ts';
import { eventually } from '../support/eventually.ts';
import {
  modalOpenedBy,
  QUICK_PLANNER,
  type Stack,
  startStack,
  ticketsOf,
} from '../support/stack.ts';

const { alice, bob, agent, itHelp } = defaultIds;
const SAM = 'sam.rivera@acme.example';
const TAKEN = 'This thread is already';

/** Everything the tests of one stack share: filing, reading Slack and the platform. */
function helpers(stack: () => Stack) {
  const workspace = () => stack().double.workspace;
  const threadOf = (channel: string, ts: string) => workspace().thread(channel, ts) ?? [];
  const messages = (id: string) => stack().emulator.model.listMessages('acme', id);
  const ticketCount = () =>
    stack().emulator.model.listTickets('acme', { page: 1, pageSize: 1 }).total_count;
  const linkOf = (channel: string, threadTs: string) =>
    stack().app.stores.links.ticketForThread(channel, threadTs);
  const noticesFor = (userId: string, ticketId: string) =>
    workspace()
      .ephemerals({ user: userId })
      .filter((e) => e.text.includes(`${TAKEN} ${ticketId}`));
  const outboxSettled = () =>
    eventually(
      async () => (await stack().app.stores.outbox.stats()).depth === 0,
      5_000,
      'the outbox to empty',
    );

  /** Alice files with /ticket in #it-help: its card heads the thread, with a reply of hers. */
  async function fileWithCommand(title: string) {
    const modal = await modalOpenedBy(stack(), alice, () =>
      stack().driver.slashCommand({ userId: alice, channelId: itHelp, text: '' }),
    );
    await stack().driver.viewSubmission({
      viewId: modal.id,
      userId: alice,
      values: { title_input: title },
    });
    const card = await eventually(
      () =>
        workspace()
          .messages(itHelp)
          .find((m) => JSON.stringify(m.blocks ?? []).includes(title)),
      5_000,
      'the card in the channel',
    );
    const ticketId = await eventually(() => linkOf(itHelp, card.ts), 5_000, 'the link');
    const reply = await stack().driver.userPosts({
      userId: alice,
      channelId: itHelp,
      text: `More detail on ${title}`,
      threadTs: card.ts,
    });
    await eventually(
      () => messages(ticketId).some((m) => m.body === `More detail on ${title}`),
      5_000,
      'the reply on the ticket',
    );
    return { ticketId, threadTs: card.ts, replyTs: reply.ts };
  }

  /** Alice files with a 🎫 on her message in #it-help; the confirmation is in its thread. */
  async function fileInItHelp(text: string) {
    const parent = await stack().driver.userPosts({ userId: alice, channelId: itHelp, text });
    await stack().driver.userReacts({
      userId: alice,
      channelId: itHelp,
      ts: parent.ts,
      reaction: 'ticket',
    });
    const ticketId = await eventually(() => linkOf(itHelp, parent.ts), 5_000, 'the link');
    return { ticketId, threadTs: parent.ts };
  }

  /** A person files by direct message; resolves once its thread is linked. */
  async function fileByDm(userId: string, text: string) {
    const dm = workspace().openIm(userId);
    const sent = await stack().driver.userPosts({ userId, channelId: dm, text });
    const ticketId = await eventually(() => linkOf(dm, sent.ts), 5_000, 'the link');
    return { dm, threadTs: sent.ts, ticketId };
  }

  /** Posts a reply in a thread and waits for it on the ticket. */
  async function replyLandsOn(
    userId: string,
    channel: string,
    threadTs: string,
    ticketId: string,
    text: string,
  ) {
    await stack().driver.userPosts({ userId, channelId: channel, text, threadTs });
    return eventually(
      () => messages(ticketId).find((m) => m.body === text),
      5_000,
      `"${text}" on ${ticketId}`,
    );
  }

  /** Reacts 🎫 and waits for the person's private notice about the thread's ticket. */
  async function reactAndAwaitNotice(
    userId: string,
    channel: string,
    ts: string,
    ticketId: string,
  ) {
    const before = noticesFor(userId, ticketId).length;
    await stack().driver.userReacts({ userId, channelId: channel, ts, reaction: 'ticket' });
    return eventually(() => noticesFor(userId, ticketId).at(before), 5_000, 'the private notice');
  }

  return {
    workspace,
    threadOf,
    messages,
    ticketCount,
    linkOf,
    noticesFor,
    outboxSettled,
    fileWithCommand,
    fileInItHelp,
    fileByDm,
    replyLandsOn,
    reactAndAwaitNotice,
  };
}

describe('a ticket’s thread stays with its ticket', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack.close();
  });
  const h = helpers(() => stack);

  it('files nothing for a 🎫 on a ticket’s card, tells the reactor privately which ticket the thread is, and keeps the requester’s replies on it', async () => {
    const filed = await h.fileWithCommand('Badge reader at door 3 is dead');
    const count = h.ticketCount();
    const notice = await h.reactAndAwaitNotice(bob, itHelp, filed.threadTs, filed.ticketId);
    expect(notice.text).toContain(
      `${TAKEN} ${filed.ticketId}: Badge reader at door 3 is dead. Replies here go to it.`,
    );
    expect(notice.thread_ts).toBeUndefined();
    expect(JSON.stringify(notice.blocks)).toContain('File my own ticket from this message');
    await h.outboxSettled();
    expect(h.ticketCount()).toBe(count);
    expect(await h.linkOf(itHelp, filed.threadTs)).toBe(filed.ticketId);
    await h.replyLandsOn(alice, itHelp, filed.threadTs, filed.ticketId, 'Door 3 still dead');
    expect(
      h.threadOf(itHelp, filed.threadTs).some((m) => /IT-\d+ was filed/.test(m.text ?? '')),
    ).toBe(false);
  });

  it('files nothing for a 🎫 on a reply in a ticket’s channel thread and tells the reactor in the thread', async () => {
    const filed = await h.fileInItHelp('Projector in room 7 flickers');
    const reply = await h.replyLandsOn(bob, itHelp, filed.threadTs, filed.ticketId, 'Room 8 too');
    const replyTs = h.threadOf(itHelp, filed.threadTs).find((m) => m.text === 'Room 8 too')?.ts;
    expect(reply).toBeDefined();
    const count = h.ticketCount();
    const notice = await h.reactAndAwaitNotice(agent, itHelp, replyTs ?? '?', filed.ticketId);
    expect(notice.thread_ts).toBe(filed.threadTs);
    expect(notice.text).toContain(`${filed.ticketId}: Projector in room 7 flickers`);
    await h.outboxSettled();
    expect(h.ticketCount()).toBe(count);
    expect(await h.linkOf(itHelp, filed.threadTs)).toBe(filed.ticketId);
    await h.replyLandsOn(alice, itHelp, filed.threadTs, filed.ticketId, 'Flickers every minute');
  });

  it('files nothing for a 🎫 on a reply in a direct-message thread with the app, and the next reply still reaches the ticket', async () => {
    const filed = await h.fileByDm(bob, 'Laptop battery swells');
    await h.replyLandsOn(bob, filed.dm, filed.threadTs, filed.ticketId, 'It bulges at the back');
    const replyTs = h
      .threadOf(filed.dm, filed.threadTs)
      .find((m) => m.text === 'It bulges at the back')?.ts;
    const count = h.ticketCount();
    const notice = await h.reactAndAwaitNotice(bob, filed.dm, replyTs ?? '?', filed.ticketId);
    expect(notice.channel).toBe(filed.dm);
    expect(notice.thread_ts).toBe(filed.threadTs);
    await h.outboxSettled();
    expect(h.ticketCount()).toBe(count);
    expect(await h.linkOf(filed.dm, filed.threadTs)).toBe(filed.ticketId);
    await h.replyLandsOn(bob, filed.dm, filed.threadTs, filed.ticketId, 'Now it is hot too');
  });

  it('files nothing for a 🎫 on the app’s own confirmation in a direct-message thread', async () => {
    const filed = await h.fileByDm(alice, 'Headset microphone is silent');
    const confirmation = await eventually(
      () => h.threadOf(filed.dm, filed.threadTs).find((m) => m.text?.includes('was filed')),
      5_000,
      'the confirmation',
    );
    const count = h.ticketCount();
    await h.reactAndAwaitNotice(alice, filed.dm, confirmation.ts, filed.ticketId);
    await h.outboxSettled();
    expect(h.ticketCount()).toBe(count);
    expect(await h.linkOf(filed.dm, filed.threadTs)).toBe(filed.ticketId);
  });

  it('finds the ticket of a channel thread whose link the store lost from the app’s card heading it, and files nothing', async () => {
    const filed = await h.fileWithCommand('Meeting room screen shows no input');
    await stack.app.stores.links.unlink(filed.ticketId, {
      channel: itHelp,
      threadTs: filed.threadTs,
    });
    const count = h.ticketCount();
    const notice = await h.reactAndAwaitNotice(bob, itHelp, filed.replyTs, filed.ticketId);
    expect(notice.thread_ts).toBe(filed.threadTs);
    await h.outboxSettled();
    expect(h.ticketCount()).toBe(count);
    expect(await h.linkOf(itHelp, filed.threadTs)).toBeUndefined();
  });

  it('tells a second person who reacts the same, and files nothing for them either', async () => {
    const filed = await h.fileInItHelp('Wall socket by desk 12 sparks');
    await h.replyLandsOn(bob, itHelp, filed.threadTs, filed.ticketId, 'Mine sparks as well');
    const replyTs =
      h.threadOf(itHelp, filed.threadTs).find((m) => m.text === 'Mine sparks as well')?.ts ?? '?';
    const count = h.ticketCount();
    await h.reactAndAwaitNotice(agent, itHelp, replyTs, filed.ticketId);
    await h.outboxSettled();
    const second = await h.reactAndAwaitNotice(alice, itHelp, replyTs, filed.ticketId);
    expect(JSON.stringify(second.blocks)).toContain('File my own ticket from this message');
    await h.outboxSettled();
    expect(h.ticketCount()).toBe(count);
  });

  it('opens no modal for the message shortcut on a ticket’s card, and tells the person privately', async () => {
    const filed = await h.fileWithCommand('Scanner on floor 4 jams');
    const opened = stack.double.callsTo('views.open').length;
    const started = Date.now();
    const result = await stack.driver.messageShortcut({
      callbackId: 'create_ticket_from_message',
      userId: bob,
      channelId: itHelp,
      messageTs: filed.threadTs,
    });
    expect(result.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(3_000);
    const notice = await eventually(
      () => h.noticesFor(bob, filed.ticketId)[0],
      5_000,
      'the private notice',
    );
    expect(notice.text).toContain(`${filed.ticketId}: Scanner on floor 4 jams`);
    await new Promise((r) => setTimeout(r, 300));
    expect(stack.double.callsTo('views.open')).toHaveLength(opened);
    expect(await h.linkOf(itHelp, filed.threadTs)).toBe(filed.ticketId);
  });

  it('opens no modal for the message shortcut on a reply in a ticket’s channel thread', async () => {
    const filed = await h.fileInItHelp('Printer prints blank pages');
    const opened = stack.double.callsTo('views.open').length;
    await h.replyLandsOn(bob, itHelp, filed.threadTs, filed.ticketId, 'Blank on mine too');
    const replyTs =
      h.threadOf(itHelp, filed.threadTs).find((m) => m.text === 'Blank on mine too')?.ts ?? '?';
    await stack.driver.messageShortcut({
      callbackId: 'create_ticket_from_message',
      userId: agent,
      channelId: itHelp,
      messageTs: replyTs,
    });
    const notice = await eventually(
      () => h.noticesFor(agent, filed.ticketId)[0],
      5_000,
      'the private notice',
    );
    expect(notice.thread_ts).toBe(filed.threadTs);
    await new Promise((r) => setTimeout(r, 300));
    expect(stack.double.callsTo('views.open')).toHaveLength(opened);
  });

  it('opens no modal for the message shortcut on a reply in a direct-message thread with the app', async () => {
    const filed = await h.fileByDm(alice, 'Docking station hums loudly');
    await h.replyLandsOn(alice, filed.dm, filed.threadTs, filed.ticketId, 'A high hum');
    const replyTs =
      h.threadOf(filed.dm, filed.threadTs).find((m) => m.text === 'A high hum')?.ts ?? '?';
    const opened = stack.double.callsTo('views.open').length;
    await stack.driver.messageShortcut({
      callbackId: 'create_ticket_from_message',
      userId: alice,
      channelId: filed.dm,
      messageTs: replyTs,
    });
    await eventually(() => h.noticesFor(alice, filed.ticketId)[0], 5_000, 'the private notice');
    await new Promise((r) => setTimeout(r, 300));
    expect(stack.double.callsTo('views.open')).toHaveLength(opened);
    expect(await h.linkOf(filed.dm, filed.threadTs)).toBe(filed.ticketId);
  });

  it('files the person’s own ticket from the notice’s button once under a double click, its card in their DM, the thread kept', async () => {
    const filed = await h.fileInItHelp('VPN drops every hour');
    await h.replyLandsOn(
      alice,
      itHelp,
      filed.threadTs,
      filed.ticketId,
      'My home printer is offline too',
    );
    const replyTs =
      h.threadOf(itHelp, filed.threadTs).find((m) => m.text === 'My home printer is offline too')
        ?.ts ?? '?';
    const notice = await h.reactAndAwaitNotice(bob, itHelp, replyTs, filed.ticketId);
    const click = () =>
      stack.driver.blockAction({
        userId: bob,
        actionId: 'file_own_from_message',
        channelId: itHelp,
        messageTs: notice.ts,
      });
    await Promise.all([click(), click()]);
    const own = await eventually(
      () =>
        ticketsOf(stack, 'bob@acme.example').find(
          (t) => t.title === 'My home printer is offline too',
        ),
      5_000,
      'bob’s own ticket',
    );
    await h.outboxSettled();
    expect(ticketsOf(stack, 'bob@acme.example').filter((t) => t.title === own.title)).toHaveLength(
      1,
    );
    expect(own.description).toContain('My home printer is offline too');
    expect(own.description).toContain(filed.ticketId);
    expect(own.description).toContain(h.workspace().permalink(itHelp, replyTs) ?? 'permalink');
    expect(own.description).toContain(
      h.workspace().permalink(itHelp, filed.threadTs) ?? 'permalink',
    );
    const dm = h.workspace().openIm(bob);
    const card = await eventually(
      () =>
        h
          .workspace()
          .messages(dm)
          .find((m) => JSON.stringify(m.blocks ?? []).includes(own.id)),
      5_000,
      'the card in bob’s DM',
    );
    expect(await h.linkOf(dm, card.ts)).toBe(own.id);
    expect(await h.linkOf(itHelp, filed.threadTs)).toBe(filed.ticketId);
    expect(h.threadOf(itHelp, filed.threadTs).some((m) => m.text?.includes(own.id))).toBe(false);
    expect(h.workspace().ephemeral(notice.ts)?.text).toContain(
      'Filing this message as your own ticket',
    );
    await h.replyLandsOn(alice, itHelp, filed.threadTs, filed.ticketId, 'VPN dropped again');
  });

  it('files nothing twice when a second person told the same clicks the button too', async () => {
    const filed = await h.fileInItHelp('Monitor arm is loose');
    await h.replyLandsOn(alice, itHelp, filed.threadTs, filed.ticketId, 'The desk wobbles badly');
    const replyTs =
      h.threadOf(itHelp, filed.threadTs).find((m) => m.text === 'The desk wobbles badly')?.ts ??
      '?';
    const first = await h.reactAndAwaitNotice(bob, itHelp, replyTs, filed.ticketId);
    await h.outboxSettled();
    const second = await h.reactAndAwaitNotice(agent, itHelp, replyTs, filed.ticketId);
    await stack.driver.blockAction({
      userId: bob,
      actionId: 'file_own_from_message',
      channelId: itHelp,
      messageTs: first.ts,
    });
    const own = await eventually(
      () => ticketsOf(stack, 'bob@acme.example').find((t) => t.title === 'The desk wobbles badly'),
      5_000,
      'bob’s own ticket',
    );
    await h.outboxSettled();
    const count = h.ticketCount();
    await stack.driver.blockAction({
      userId: agent,
      actionId: 'file_own_from_message',
      channelId: itHelp,
      messageTs: second.ts,
    });
    await eventually(
      () =>
        h
          .workspace()
          .ephemeral(second.ts)
          ?.text.includes(`already filed as its own ticket, *${own.id}*`),
      5_000,
      'the second person told',
    );
    await h.outboxSettled();
    expect(h.ticketCount()).toBe(count);
  });

  it('refuses the button to someone the notice was not for', async () => {
    const filed = await h.fileInItHelp('Keyboard types double letters');
    await h.replyLandsOn(alice, itHelp, filed.threadTs, filed.ticketId, 'Double letters here');
    const replyTs =
      h.threadOf(itHelp, filed.threadTs).find((m) => m.text === 'Double letters here')?.ts ?? '?';
    const notice = await h.reactAndAwaitNotice(bob, itHelp, replyTs, filed.ticketId);
    const count = h.ticketCount();
    await stack.driver.blockAction({
      userId: agent,
      actionId: 'file_own_from_message',
      channelId: itHelp,
      messageTs: notice.ts,
    });
    await eventually(
      () =>
        h
          .workspace()
          .ephemerals({ user: agent })
          .some((e) => e.text.includes(`can’t change`)),
      5_000,
      'the refusal',
    );
    await h.outboxSettled();
    expect(h.ticketCount()).toBe(count);
  });

  it('files a shortcut’s modal into the person’s DM when its thread became a ticket’s meanwhile, and leaves the thread with that ticket', async () => {
    const parent = await stack.driver.userPosts({
      userId: bob,
      channelId: itHelp,
      text: 'Network is slow on floor 2',
    });
    const reply = await stack.driver.userPosts({
      userId: alice,
      channelId: itHelp,
      text: 'Floor 3 printers unreachable',
      threadTs: parent.ts,
    });
    const view = await modalOpenedBy(stack, alice, () =>
      stack.driver.messageShortcut({
        callbackId: 'create_ticket_from_message',
        userId: alice,
        channelId: itHelp,
        messageTs: reply.ts,
      }),
    );
    await stack.driver.userReacts({
      userId: bob,
      channelId: itHelp,
      ts: parent.ts,
      reaction: 'ticket',
    });
    const first = await eventually(() => h.linkOf(itHelp, parent.ts), 5_000, 'the link');
    await stack.driver.viewSubmission({ viewId: view.id, userId: alice, values: {} });
    const own = await eventually(
      () =>
        ticketsOf(stack, 'alice@acme.example').find(
          (t) => t.title === 'Floor 3 printers unreachable',
        ),
      5_000,
      'alice’s ticket',
    );
    const dm = h.workspace().openIm(alice);
    const card = await eventually(
      () =>
        h
          .workspace()
          .messages(dm)
          .find((m) => JSON.stringify(m.blocks ?? []).includes(own.id)),
      5_000,
      'the card in alice’s DM',
    );
    expect(JSON.stringify(card.blocks)).toContain(`${first}*'s thread`);
    expect(await h.linkOf(dm, card.ts)).toBe(own.id);
    expect(await h.linkOf(itHelp, parent.ts)).toBe(first);
  });
});

describe('when Slack fails the thread-taken notice', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack.close();
  });
  const h = helpers(() => stack);

  /** A ticket filed in #it-help with a reply of Bob's in its thread, and the outbox quiet. */
  async function threadWithReply(text: string, reply: string) {
    const filed = await h.fileInItHelp(text);
    await h.replyLandsOn(bob, itHelp, filed.threadTs, filed.ticketId, reply);
    const replyTs = h.threadOf(itHelp, filed.threadTs).find((m) => m.text === reply)?.ts ?? '?';
    await h.outboxSettled();
    return { ...filed, replyTs };
  }

  const dmNotices = (userId: string, ticketId: string) =>
    h
      .workspace()
      .messages(h.workspace().openIm(userId))
      .filter((m) => m.text?.includes(`${TAKEN} ${ticketId}`));

  it('tells the reactor in their DM when Slack answers the ephemeral with 429, and files nothing', async () => {
    const filed = await threadWithReply('Webcam shows green image', 'Green here too');
    const count = h.ticketCount();
    stack.double.failNext('chat.postEphemeral', 'ratelimited', { retryAfterSec: 1 });
    await stack.driver.userReacts({
      userId: agent,
      channelId: itHelp,
      ts: filed.replyTs,
      reaction: 'ticket',
    });
    const told = await eventually(() => dmNotices(agent, filed.ticketId)[0], 5_000, 'the DM');
    expect(JSON.stringify(told.blocks)).toContain('File my own ticket from this message');
    await h.outboxSettled();
    expect(h.ticketCount()).toBe(count);
    expect(await h.linkOf(itHelp, filed.threadTs)).toBe(filed.ticketId);
  });

  it('tells a second reactor in their DM when Slack answers the ephemeral with 429', async () => {
    // The last test's 1-second Retry-After on chat.postEphemeral, which the app keeps, is over.
    await new Promise((r) => setTimeout(r, 1_000));
    const filed = await threadWithReply('Desk phone has no dial tone', 'No tone here either');
    await h.reactAndAwaitNotice(agent, itHelp, filed.replyTs, filed.ticketId);
    await h.outboxSettled();
    stack.double.failNext('chat.postEphemeral', 'ratelimited', { retryAfterSec: 1 });
    await stack.driver.userReacts({
      userId: alice,
      channelId: itHelp,
      ts: filed.replyTs,
      reaction: 'ticket',
    });
    await eventually(() => dmNotices(alice, filed.ticketId)[0], 5_000, 'the DM');
  });

  it('tells the reactor once Slack is back when the ephemeral and the DM both answer 500, and files nothing', async () => {
    const filed = await threadWithReply('Laptop hinge cracked', 'Mine cracked too');
    const count = h.ticketCount();
    // Twice each: the Web API client tries a 500 once more itself.
    stack.double.failNext('chat.postEphemeral', 'internal_error', { status: 500, times: 2 });
    stack.double.failNext('conversations.open', 'internal_error', { status: 500, times: 2 });
    await stack.driver.userReacts({
      userId: agent,
      channelId: itHelp,
      ts: filed.replyTs,
      reaction: 'ticket',
    });
    await eventually(
      () =>
        h.noticesFor(agent, filed.ticketId).length + dmNotices(agent, filed.ticketId).length > 0,
      15_000,
      'the notice after the failures',
    );
    await h.outboxSettled();
    expect(
      h.noticesFor(agent, filed.ticketId).length + dmNotices(agent, filed.ticketId).length,
    ).toBe(1);
    expect(h.ticketCount()).toBe(count);
    expect(await h.linkOf(itHelp, filed.threadTs)).toBe(filed.ticketId);
    // Slack was down, not the service desk, and nothing was waiting to be filed.
    expect(
      h
        .workspace()
        .messages(itHelp)
        .some((m) => m.text?.includes('not answering')),
    ).toBe(false);
  });

  it('keeps the notice and files nothing when Slack cannot open the person’s DM, and files on the next click', async () => {
    const filed = await threadWithReply('Phone will not charge', 'My charger is broken');
    const notice = await h.reactAndAwaitNotice(alice, itHelp, filed.replyTs, filed.ticketId);
    stack.double.failNext('conversations.open', 'internal_error', { status: 500, times: 2 });
    const click = () =>
      stack.driver.blockAction({
        userId: alice,
        actionId: 'file_own_from_message',
        channelId: itHelp,
        messageTs: notice.ts,
      });
    await click();
    await eventually(
      () =>
        h
          .workspace()
          .ephemerals({ user: alice })
          .some((e) => e.text.includes('Slack did not answer just now')),
      5_000,
      'the person told',
    );
    expect(JSON.stringify(h.workspace().ephemeral(notice.ts)?.blocks)).toContain(
      'File my own ticket from this message',
    );
    expect(
      ticketsOf(stack, 'alice@acme.example').some((t) => t.title === 'My charger is broken'),
    ).toBe(false);
    await click();
    await eventually(
      () => ticketsOf(stack, 'alice@acme.example').find((t) => t.title === 'My charger is broken'),
      5_000,
      'alice’s own ticket',
    );
  });
});

describe('a 🎫 on a reply with the mirror running', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ mirror: { planner: QUICK_PLANNER } });
  });
  afterAll(async () => {
    await stack.close();
  });
  const h = helpers(() => stack);

  it('leaves the original ticket’s agent answers reaching the thread, and the requester’s replies reaching the ticket', async () => {
    const filed = await h.fileByDm(bob, 'Cannot print to the plotter');
    await h.replyLandsOn(bob, filed.dm, filed.threadTs, filed.ticketId, 'It says offline');
    const replyTs =
      h.threadOf(filed.dm, filed.threadTs).find((m) => m.text === 'It says offline')?.ts ?? '?';
    await h.reactAndAwaitNotice(bob, filed.dm, replyTs, filed.ticketId);
    await h.outboxSettled();
    const answer = stack.emulator.model.addAgentReply('acme', filed.ticketId, {
      agentEmail: SAM,
      body: 'I restarted the plotter',
    });
    await eventually(
      () =>
        h
          .threadOf(filed.dm, filed.threadTs)
          .find(
            (m) =>
              (m.metadata as { event_payload?: { message_id?: string } } | undefined)?.event_payload
                ?.message_id === answer.id,
          ),
      15_000,
      'the agent’s answer in the thread',
    );
    await h.replyLandsOn(bob, filed.dm, filed.threadTs, filed.ticketId, 'Works now, thanks');
    expect(await h.linkOf(filed.dm, filed.threadTs)).toBe(filed.ticketId);
  });

  it('lets a 🎫 on the app’s mirrored post in the thread file nothing', async () => {
    const filed = await h.fileByDm(alice, 'Keyboard backlight is off');
    await h.replyLandsOn(alice, filed.dm, filed.threadTs, filed.ticketId, 'Since this morning');
    const answer = stack.emulator.model.addAgentReply('acme', filed.ticketId, {
      agentEmail: SAM,
      body: 'Press Fn and F10',
    });
    const post = await eventually(
      () =>
        h
          .threadOf(filed.dm, filed.threadTs)
          .find(
            (m) =>
              (m.metadata as { event_payload?: { message_id?: string } } | undefined)?.event_payload
                ?.message_id === answer.id,
          ),
      15_000,
      'the agent’s answer in the thread',
    );
    const count = h.ticketCount();
    await h.reactAndAwaitNotice(alice, filed.dm, post.ts, filed.ticketId);
    await h.outboxSettled();
    expect(h.ticketCount()).toBe(count);
    expect(await h.linkOf(filed.dm, filed.threadTs)).toBe(filed.ticketId);
  });
});
