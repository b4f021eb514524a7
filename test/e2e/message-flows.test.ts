/** Flows 5–9: message shortcut, global shortcut, reactions, direct messages, thread replies. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultIds } from '../../tools/slack-double/index.ts';
import { eventually } from '../support/eventually.ts';
import { modalOpenedBy, type Stack, startStack, ticketsOf } from '../support/stack.ts';

const { alice, bob, general, itHelp } = defaultIds;

describe('tickets from messages', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
    // Before any form is opened: a person's devices are kept for minutes once read.
    for (const [email, name, id] of [
      ['alice@acme.example', 'Alice’s own laptop', 'ast_alice_own'],
      ['bob@acme.example', 'Bob’s own laptop', 'ast_bob_own'],
    ] as const) {
      stack.emulator.model.addAsset('acme', {
        id,
        name,
        type: 'laptop',
        serial_number: null,
        assigned_to_email: email,
      });
    }
  });
  afterAll(async () => {
    await stack.close();
  });

  const threadOf = (channel: string, ts: string) =>
    stack.double.workspace.thread(channel, ts) ?? [];

  /** A person files a ticket by direct message; resolves once its thread is linked. */
  async function fileByDm(userId: string, text: string) {
    const dm = stack.double.workspace.openIm(userId);
    const sent = await stack.driver.userPosts({ userId, channelId: dm, text });
    const ticketId = await eventually(
      () => stack.app.stores.links.ticketForThread(dm, sent.ts),
      5_000,
      'the link',
    );
    return { dm, threadTs: sent.ts, ticketId };
  }

  it('opens the modal from a message shortcut prefilled with the message, its author, permalink and replies', async () => {
    const parent = await stack.driver.userPosts({
      userId: bob,
      channelId: itHelp,
      text: 'The wifi in room 4 keeps dropping',
    });
    await stack.driver.userPosts({
      userId: alice,
      channelId: itHelp,
      text: 'Same here since Monday',
      threadTs: parent.ts,
    });
    const view = await modalOpenedBy(stack, alice, () =>
      stack.driver.messageShortcut({
        callbackId: 'create_ticket_from_message',
        userId: alice,
        channelId: itHelp,
        messageTs: parent.ts,
      }),
    );
    const text = JSON.stringify(view.blocks);
    expect(text).toContain('"initial_value":"The wifi in room 4 keeps dropping"');
    expect(text).toContain('Same here since Monday');
    expect(text).toContain('posted by Bob Baker');
    expect(text).toContain(stack.double.workspace.permalink(itHelp, parent.ts) ?? 'permalink');
    expect(text).toContain(`<@${bob}>`);
  });

  it('lists the requester’s devices, not the person’s who filed, in the form from a message shortcut', async () => {
    const parent = await stack.driver.userPosts({
      userId: bob,
      channelId: itHelp,
      text: 'My docking station stopped charging',
    });
    const view = await modalOpenedBy(stack, alice, () =>
      stack.driver.messageShortcut({
        callbackId: 'create_ticket_from_message',
        userId: alice,
        channelId: itHelp,
        messageTs: parent.ts,
      }),
    );
    const text = JSON.stringify(view.blocks);
    expect(text).toContain('Bob’s own laptop');
    expect(text).not.toContain('Alice’s own laptop');
  });

  it('files the shortcut’s ticket for the message’s author, says so in the message’s thread and links it', async () => {
    const parent = await stack.driver.userPosts({
      userId: bob,
      channelId: itHelp,
      text: 'Projector in room 2 shows no picture',
    });
    const view = await modalOpenedBy(stack, alice, () =>
      stack.driver.messageShortcut({
        callbackId: 'create_ticket_from_message',
        userId: alice,
        channelId: itHelp,
        messageTs: parent.ts,
      }),
    );
    await stack.driver.viewSubmission({ viewId: view.id, userId: alice, values: {} });
    const ticket = ticketsOf(stack, 'bob@acme.example').find(
      (t) => t.title === 'Projector in room 2 shows no picture',
    );
    expect(ticket).toBeDefined();
    const notice = await eventually(
      () => threadOf(itHelp, parent.ts).find((m) => m.text?.includes(`${ticket?.id} was filed`)),
      5_000,
      'the notice in the thread',
    );
    expect(notice.text).toContain('Replies in this thread go to the ticket');
    expect(await stack.app.stores.links.ticketForThread(itHelp, parent.ts)).toBe(ticket?.id);
  });

  it('files a shortcut’s ticket from a channel the app is not in: card and thread in a direct message, and the person told where', async () => {
    const parent = await stack.driver.userPosts({
      userId: bob,
      channelId: general,
      text: 'The coffee machine network port is dead',
    });
    const view = await modalOpenedBy(stack, alice, () =>
      stack.driver.messageShortcut({
        callbackId: 'create_ticket_from_message',
        userId: alice,
        channelId: general,
        messageTs: parent.ts,
      }),
    );
    await stack.driver.viewSubmission({ viewId: view.id, userId: alice, values: {} });
    const filed = ticketsOf(stack, 'bob@acme.example').filter(
      (t) => t.title === 'The coffee machine network port is dead',
    );
    expect(filed).toHaveLength(1);
    const dm = stack.double.workspace.openIm(alice);
    const card = await eventually(
      () =>
        stack.double.workspace
          .messages(dm)
          .find((m) => JSON.stringify(m.blocks ?? []).includes(filed[0]?.id ?? '?')),
      5_000,
      'the card in Alice’s DM',
    );
    expect(JSON.stringify(card.blocks)).toContain(`from a message in <#${general}>`);
    expect(await stack.app.stores.links.ticketForThread(dm, card.ts)).toBe(filed[0]?.id);
    const shown = JSON.stringify(stack.double.workspace.modalStack(alice).at(-1)?.blocks ?? []);
    expect(shown).toContain('is filed');
    expect(shown).toContain('direct messages with the app');
    const everything = JSON.stringify(stack.double.callsTo('chat.postMessage'));
    expect(everything).not.toContain('not filed');
  });

  it('files from the global shortcut and tells the person the card is in their direct messages', async () => {
    const view = await modalOpenedBy(stack, bob, () =>
      stack.driver.globalShortcut({ callbackId: 'new_ticket', userId: bob }),
    );
    await stack.driver.viewSubmission({
      viewId: view.id,
      userId: bob,
      values: { title_input: 'Monitor flickers' },
    });
    const dm = stack.double.workspace.openIm(bob);
    const card = await eventually(
      () =>
        stack.double.workspace
          .messages(dm)
          .find((m) => JSON.stringify(m.blocks ?? []).includes('Monitor flickers')),
      5_000,
      'the card in Bob’s DM',
    );
    expect(await stack.app.stores.links.ticketForThread(dm, card.ts)).toMatch(/^IT-\d+$/);
    const shown = JSON.stringify(stack.double.workspace.modalStack(bob).at(-1)?.blocks ?? []);
    expect(shown).toContain('direct messages with the app');
  });

  it('opens the create modal from the global shortcut', async () => {
    const result = await stack.driver.globalShortcut({ callbackId: 'new_ticket', userId: bob });
    expect(result.status).toBe(200);
    await eventually(
      () => stack.double.workspace.modalStack(bob).at(-1)?.callback_id === 'create_ticket',
      5_000,
      'the modal',
    );
  });

  it('files a reacted message for its author and confirms in its thread; a second reaction files nothing new', async () => {
    const parent = await stack.driver.userPosts({
      userId: bob,
      channelId: itHelp,
      text: 'Keyboard missing the E key',
    });
    await stack.driver.userReacts({
      userId: alice,
      channelId: itHelp,
      ts: parent.ts,
      reaction: 'ticket',
    });
    const confirmation = await eventually(
      () => threadOf(itHelp, parent.ts).find((m) => m.text?.includes('was filed')),
      5_000,
      'the confirmation',
    );
    await stack.driver.userReacts({
      userId: defaultIds.agent,
      channelId: itHelp,
      ts: parent.ts,
      reaction: 'ticket',
    });
    await eventually(
      () =>
        stack.double.workspace
          .ephemerals({ user: defaultIds.agent })
          .some((e) => /already (ticket|being filed)/.test(e.text)),
      5_000,
      'the second reactor told',
    );
    const tickets = ticketsOf(stack, 'bob@acme.example').filter(
      (t) => t.title === 'Keyboard missing the E key',
    );
    expect(tickets).toHaveLength(1);
    expect(confirmation.text).toContain(tickets[0]?.id);
    expect(threadOf(itHelp, parent.ts).filter((m) => m.text?.includes('was filed'))).toHaveLength(
      1,
    );
  });

  it('ignores other reactions', async () => {
    const parent = await stack.driver.userPosts({
      userId: bob,
      channelId: itHelp,
      text: 'Thanks all!',
    });
    await stack.driver.userReacts({
      userId: alice,
      channelId: itHelp,
      ts: parent.ts,
      reaction: 'thumbsup',
    });
    expect(ticketsOf(stack, 'bob@acme.example').some((t) => t.title === 'Thanks all!')).toBe(false);
  });

  it('files a direct message to the app as a ticket and answers in its thread, linked', async () => {
    const dm = stack.double.workspace.openIm(alice);
    const sent = await stack.driver.userPosts({
      userId: alice,
      channelId: dm,
      text: 'My password expired\nI cannot log in to the laptop',
    });
    const answer = await eventually(
      () => threadOf(dm, sent.ts).find((m) => m.text?.includes('was filed')),
      5_000,
      'the answer in the DM thread',
    );
    const ticket = ticketsOf(stack, 'alice@acme.example').find(
      (t) => t.title === 'My password expired',
    );
    expect(ticket).toMatchObject({
      channel: 'slack',
      description: 'My password expired\nI cannot log in to the laptop',
    });
    expect(answer.text).toContain(ticket?.id);
    // Linked right after the answer is posted (a reply meanwhile is linked from the thread).
    expect(
      await eventually(() => stack.app.stores.links.ticketForThread(dm, sent.ts), 2_000, 'link'),
    ).toBe(ticket?.id);
  });

  it('adds a reply in a linked thread to the ticket as a message from its author', async () => {
    const { dm, threadTs, ticketId } = await fileByDm(bob, 'Need a new mouse');
    await stack.driver.userPosts({
      userId: bob,
      channelId: dm,
      text: 'A wireless one if possible',
      threadTs,
    });
    const message = await eventually(
      () =>
        stack.emulator.model
          .listMessages('acme', ticketId)
          .find((m) => m.body === 'A wireless one if possible'),
      5_000,
      'the ticket message',
    );
    expect(message.author).toMatchObject({ type: 'requester', email: 'bob@acme.example' });
  });

  it('makes one ticket message from four deliveries of one event', async () => {
    const { dm, threadTs, ticketId } = await fileByDm(alice, 'Monitor flickers');
    const reply = stack.double.workspace.postMessage(dm, {
      user: alice,
      text: 'It is the left one',
      thread_ts: threadTs,
    });
    const deliveries = await stack.driver.deliverWithRetries(
      { ...reply, channel: dm, channel_type: 'im', event_ts: reply.ts },
      4,
    );
    expect(deliveries.map((d) => d.status)).toEqual([200, 200, 200, 200]);
    await eventually(
      () =>
        stack.emulator.model
          .listMessages('acme', ticketId)
          .some((m) => m.body === 'It is the left one'),
      5_000,
      'the message',
    );
    await stack.app.slack.worker.runOnce();
    expect(
      stack.emulator.model
        .listMessages('acme', ticketId)
        .filter((m) => m.body === 'It is the left one'),
    ).toHaveLength(1);
  });

  it('ignores the app’s own posts and other bots in linked threads', async () => {
    const { dm, threadTs, ticketId } = await fileByDm(alice, 'Dock does not charge');
    const count = () => stack.emulator.model.listMessages('acme', ticketId).length;
    const before = count();
    const botReply = stack.double.workspace.postMessage(dm, {
      bot_id: 'B0DEPLOY',
      text: 'deploy finished',
      thread_ts: threadTs,
    });
    await stack.driver.event({
      ...botReply,
      channel: dm,
      channel_type: 'im',
      event_ts: botReply.ts,
      subtype: 'bot_message',
    });
    expect(count()).toBe(before);
  });

  it('tells a person without an email why their ticket was not filed, with their own words', async () => {
    const dm = stack.double.workspace.openIm(defaultIds.noEmail);
    await stack.driver.userPosts({
      userId: defaultIds.noEmail,
      channelId: dm,
      text: 'Guest wifi code please',
    });
    const notice = await eventually(
      () =>
        stack.double.workspace
          .ephemerals({ user: defaultIds.noEmail })
          .find((e) => e.text.includes('no email address')),
      5_000,
      'the notice',
    );
    expect(JSON.stringify(notice.blocks)).toContain('Guest wifi code please');
  });

  it('files a reacted reply in a thread and confirms in that thread', async () => {
    const parent = await stack.driver.userPosts({
      userId: alice,
      channelId: itHelp,
      text: 'Office move next week',
    });
    const reply = await stack.driver.userPosts({
      userId: bob,
      channelId: itHelp,
      text: 'My docking station is missing after the move',
      threadTs: parent.ts,
    });
    await stack.driver.userReacts({
      userId: alice,
      channelId: itHelp,
      ts: reply.ts,
      reaction: 'ticket',
    });
    const notice = await eventually(
      () => threadOf(itHelp, parent.ts).find((m) => m.text?.includes('was filed')),
      5_000,
      'the confirmation in the thread',
    );
    const ticket = ticketsOf(stack, 'bob@acme.example').find(
      (t) => t.title === 'My docking station is missing after the move',
    );
    expect(notice.text).toContain(ticket?.id);
  });
});
