/**
 * Request channels end to end: a channel set to auto files every new top-level message a person
 * writes there, once, whatever Slack retries, however many replicas hear it, and across a
 * platform outage; thread replies, edits, bots, joins and messages deleted at once file nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { defaultIds } from '../../tools/slack-double/index.ts';
import { eventually } from '../support/eventually.ts';
import { ROUTED_DESK, type Stack, startStack, ticketsOf } from '../support/stack.ts';

const { agent, alice, bob, bot, general, itHelp, otherBot } = defaultIds;
// The hold before a request channel's message is filed (CHANNEL_AUTO_HOLD_SECONDS' default).
const HOLD_MS = 3_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('request channels', { timeout: 40_000 }, () => {
  let stack: Stack;
  afterEach(async () => {
    await stack.close();
  });

  async function command(userId: string, channelId: string, text: string): Promise<string> {
    const sent = await stack.driver.slashCommand({ userId, channelId, text });
    expect(sent.status).toBe(200);
    const post = await stack.double.waitForResponseUrlPost(
      (p) => p.url === sent.responseUrl,
      5_000,
    );
    expect(post.body).toMatchObject({ response_type: 'ephemeral' });
    return JSON.stringify(post.body);
  }

  const titled = (email: string, title: string) =>
    ticketsOf(stack, email).filter((t) => t.title === title);
  const thread = (channel: string, ts: string) =>
    (stack.double.workspace.thread(channel, ts) ?? []).slice(1);

  // Long enough for the hold and the filing to be over had anything been queued.
  async function settled(): Promise<void> {
    await sleep(HOLD_MS + 1_000);
    await stack.app.slack.worker.runOnce();
  }

  it('an agent’s /ticket channel auto makes every new message a ticket on the channel’s desk, answered in its thread and linked both ways', async () => {
    stack = await startStack();
    const answer = await command(agent, itHelp, 'channel auto');
    expect(answer).toContain(
      'Every new message here now becomes a ticket on the *IT Support* desk',
    );

    const sent = await stack.driver.userPosts({
      userId: alice,
      channelId: itHelp,
      text: 'Laptop will not wake from sleep',
    });
    expect(sent.delivery?.status).toBe(200);
    const card = await eventually(
      () => thread(itHelp, sent.ts).find((m) => m.text?.includes('was filed')),
      HOLD_MS + 10_000,
      'the ticket’s card in the message’s thread',
    );
    const [ticket] = titled('alice@acme.example', 'Laptop will not wake from sleep');
    expect(ticket?.desk_id).toBe(ROUTED_DESK);
    expect(JSON.stringify(card)).toContain(ticket?.id);
    // The thread is linked just after the card is posted.
    const linked = await eventually(
      () => stack.app.stores.links.ticketForThread(itHelp, sent.ts),
      5_000,
      'the thread linked',
    );
    expect(linked).toBe(ticket?.id);
    expect(await stack.app.stores.links.threadsForTicket(ticket?.id as string)).toEqual([
      { channel: itHelp, threadTs: sent.ts },
    ]);
  });

  it('files exactly once when Slack delivers the message four times to two replicas', async () => {
    stack = await startStack();
    const second = await stack.addReplica();
    await stack.app.stores.channelModes.set(itHelp, 'auto');
    const stored = stack.double.workspace.postMessage(itHelp, {
      user: bob,
      text: 'Monitor flickers under retries',
    });
    const event = { ...stored, channel: itHelp, channel_type: 'channel', event_ts: stored.ts };
    const envelope = stack.driver.envelope(event);
    const deliveries = await Promise.all([
      stack.driver.deliverWithRetries(event, 4, { eventId: envelope.event_id, concurrent: true }),
      second.driver.deliverWithRetries(event, 4, { eventId: envelope.event_id, concurrent: true }),
      // The same message under another event id, as a second subscription would bring it.
      second.driver.event(event),
    ]);
    expect(deliveries.flat().every((d) => d.status === 200)).toBe(true);
    await eventually(
      () => thread(itHelp, stored.ts).some((m) => m.text?.includes('was filed')),
      HOLD_MS + 10_000,
      'the card',
    );
    await settled();
    await second.slack.worker.runOnce();
    expect(titled('bob@acme.example', 'Monitor flickers under retries')).toHaveLength(1);
    expect(thread(itHelp, stored.ts).filter((m) => m.text?.includes('was filed'))).toHaveLength(1);
  });

  it('tells the writer privately while the platform is down, and files the message once it is back', {
    timeout: 40_000,
  }, async () => {
    stack = await startStack();
    await stack.app.stores.channelModes.set(itHelp, 'auto');
    stack.emulator.setFaults({ down: true });
    const sent = await stack.driver.userPosts({
      userId: alice,
      channelId: itHelp,
      text: 'Filed from a channel during an outage',
    });
    const notice = await eventually(
      () =>
        stack.double.workspace
          .ephemerals({ channel: itHelp, user: alice })
          .find((m) => m.text.includes('not answering')),
      HOLD_MS + 10_000,
      'the private delay notice',
    );
    expect(notice.thread_ts).toBe(sent.ts);
    // Nothing in the channel's own view says the service desk is down.
    expect(thread(itHelp, sent.ts).some((m) => m.text?.includes('not answering'))).toBe(false);
    await sleep(3_000);
    expect(titled('alice@acme.example', 'Filed from a channel during an outage')).toHaveLength(0);
    stack.emulator.setFaults({ down: false });
    await eventually(
      () => thread(itHelp, sent.ts).some((m) => m.text?.includes('was filed')),
      15_000,
      'the ticket after recovery',
    );
    expect(titled('alice@acme.example', 'Filed from a channel during an outage')).toHaveLength(1);
  });

  it('files a message once when the replica that heard it stops during its hold', {
    timeout: 30_000,
  }, async () => {
    stack = await startStack();
    await stack.app.stores.channelModes.set(itHelp, 'auto');
    const sent = await stack.driver.userPosts({
      userId: bob,
      channelId: itHelp,
      text: 'Docking station survives a restart',
    });
    expect(sent.delivery?.status).toBe(200);
    await stack.app.stop();
    const next = await stack.addReplica();
    await eventually(
      () => thread(itHelp, sent.ts).some((m) => m.text?.includes('was filed')),
      HOLD_MS + 10_000,
      'the card from the new process',
    );
    await sleep(1_000);
    await next.slack.worker.runOnce();
    expect(titled('bob@acme.example', 'Docking station survives a restart')).toHaveLength(1);
  });

  it('files nothing for thread replies, edits, bot posts, joins or the app’s own posts', {
    timeout: 30_000,
  }, async () => {
    stack = await startStack();
    await stack.app.stores.channelModes.set(itHelp, 'auto');
    const sent = await stack.driver.userPosts({
      userId: alice,
      channelId: itHelp,
      text: 'Keyboard types double letters',
    });
    await eventually(
      () => thread(itHelp, sent.ts).some((m) => m.text?.includes('was filed')),
      HOLD_MS + 10_000,
      'the card',
    );
    const [ticket] = titled('alice@acme.example', 'Keyboard types double letters');
    const before = stack.emulator.model.ticketCount('acme');

    await stack.driver.userPosts({
      userId: bob,
      channelId: itHelp,
      text: 'Same here on my desk',
      threadTs: sent.ts,
    });
    await stack.driver.userEdits({
      userId: alice,
      channelId: itHelp,
      ts: sent.ts,
      text: 'Keyboard types double letters, since Monday',
    });
    const botPost = stack.double.workspace.postMessage(itHelp, {
      bot_id: 'B0DEPLOY',
      user: otherBot,
      subtype: 'bot_message',
      text: 'Deploy finished',
    });
    await stack.driver.messageEcho({ channelId: itHelp, ts: botPost.ts });
    const join = stack.double.workspace.postMessage(itHelp, {
      user: bob,
      subtype: 'channel_join',
      text: '<@U0BOB> has joined the channel',
    });
    await stack.driver.messageEcho({ channelId: itHelp, ts: join.ts });
    const own = thread(itHelp, sent.ts).find((m) => m.user === bot);
    if (own) await stack.driver.messageEcho({ channelId: itHelp, ts: own.ts });
    await settled();

    expect(stack.emulator.model.ticketCount('acme')).toBe(before);
    // The reply went to the ticket the thread is, as in any linked thread.
    await eventually(
      () =>
        stack.emulator.model
          .listMessages('acme', ticket?.id as string)
          .some((m) => m.body.includes('Same here on my desk')),
      10_000,
      'the reply on the ticket',
    );
  });

  it('files nothing for a message its writer deletes within the hold', async () => {
    stack = await startStack();
    await stack.app.stores.channelModes.set(itHelp, 'auto');
    const sent = await stack.driver.userPosts({
      userId: alice,
      channelId: itHelp,
      text: 'Oops, wrong channel',
    });
    stack.double.workspace.deleteMessage(itHelp, sent.ts);
    const deleted = await stack.driver.event({
      type: 'message',
      subtype: 'message_deleted',
      hidden: true,
      channel: itHelp,
      channel_type: 'channel',
      ts: stack.double.workspace.nextTs(),
      deleted_ts: sent.ts,
      event_ts: stack.double.workspace.nextTs(),
      previous_message: sent.message,
    });
    expect(deleted.status).toBe(200);
    await settled();
    expect(titled('alice@acme.example', 'Oops, wrong channel')).toHaveLength(0);
    expect(thread(itHelp, sent.ts)).toHaveLength(0);
  });

  const bodiesOf = (ticketId: string) =>
    stack.emulator.model.listMessages('acme', ticketId).map((m) => m.body);

  it('files a message edited within the hold with its edited words', async () => {
    stack = await startStack();
    await stack.app.stores.channelModes.set(itHelp, 'auto');
    const sent = await stack.driver.userPosts({
      userId: alice,
      channelId: itHelp,
      text: 'Keyboard backlight broken typo',
    });
    await sleep(200);
    const edited = await stack.driver.userEdits({
      userId: alice,
      channelId: itHelp,
      ts: sent.ts,
      text: 'Keyboard backlight broken',
    });
    expect(edited.delivery?.status).toBe(200);
    const card = await eventually(
      () => thread(itHelp, sent.ts).find((m) => m.text?.includes('was filed')),
      HOLD_MS + 10_000,
      'the card',
    );
    const [ticket] = titled('alice@acme.example', 'Keyboard backlight broken');
    expect(ticket?.description).toContain('Keyboard backlight broken');
    expect(ticket?.description).not.toContain('typo');
    expect(titled('alice@acme.example', 'Keyboard backlight broken typo')).toHaveLength(0);
    expect(JSON.stringify(card)).not.toContain('typo');
    await settled();
    expect(bodiesOf(ticket?.id as string).filter((b) => b.startsWith('edited:'))).toEqual([]);
  });

  it('puts an edit that came once the filing had started on the ticket, as an edit', async () => {
    stack = await startStack();
    await stack.app.stores.channelModes.set(itHelp, 'auto');
    // The edit's event overtakes the message's: the filing can only start from the first words.
    const stored = stack.double.workspace.postMessage(itHelp, {
      user: alice,
      text: 'Webcam shows a black image',
    });
    const first = { ...stored, channel: itHelp, channel_type: 'channel', event_ts: stored.ts };
    await stack.driver.userEdits({
      userId: alice,
      channelId: itHelp,
      ts: stored.ts,
      text: 'Webcam shows a black image in Zoom only',
    });
    await stack.driver.event(first);
    await eventually(
      () => thread(itHelp, stored.ts).some((m) => m.text?.includes('was filed')),
      HOLD_MS + 10_000,
      'the card',
    );
    const [ticket] = titled('alice@acme.example', 'Webcam shows a black image');
    await eventually(
      () =>
        bodiesOf(ticket?.id as string).some(
          (b) => b === 'edited: Webcam shows a black image in Zoom only',
        ),
      10_000,
      'the edit on the ticket',
    );
    await settled();
    expect(bodiesOf(ticket?.id as string).filter((b) => b.startsWith('edited:'))).toHaveLength(1);
  });

  it('puts an edit made after the filing on the ticket, as an edit', async () => {
    stack = await startStack();
    await stack.app.stores.channelModes.set(itHelp, 'auto');
    const sent = await stack.driver.userPosts({
      userId: alice,
      channelId: itHelp,
      text: 'Headset crackles',
    });
    await eventually(
      () => stack.app.stores.links.ticketForThread(itHelp, sent.ts),
      HOLD_MS + 10_000,
      'the thread linked',
    );
    const [ticket] = titled('alice@acme.example', 'Headset crackles');
    await stack.driver.userEdits({
      userId: alice,
      channelId: itHelp,
      ts: sent.ts,
      text: 'Headset crackles on calls',
    });
    await eventually(
      () => bodiesOf(ticket?.id as string).includes('edited: Headset crackles on calls'),
      10_000,
      'the edit on the ticket',
    );
  });

  it('loses no edit of a direct message made as it is being filed: filed with it, or added as an edit, once', async () => {
    stack = await startStack();
    const dm = stack.double.workspace.openIm(alice);
    const sent = await stack.driver.userPosts({
      userId: alice,
      channelId: dm,
      text: 'Moniter flickers at my desk',
    });
    await stack.driver.userEdits({
      userId: alice,
      channelId: dm,
      ts: sent.ts,
      text: 'Monitor flickers at my desk',
    });
    const ticketId = await eventually(
      () => stack.app.stores.links.ticketForThread(dm, sent.ts),
      10_000,
      'the ticket',
    );
    const ticket = stack.emulator.model.getTicket('acme', ticketId);
    const edits = () => bodiesOf(ticketId).filter((b) => b.startsWith('edited:'));
    if (ticket.title === 'Monitor flickers at my desk') {
      await settled();
      expect(edits()).toEqual([]);
    } else {
      await eventually(() => edits().length > 0, 10_000, 'the edit on the ticket');
      await settled();
      expect(edits()).toEqual(['edited: Monitor flickers at my desk']);
    }
  });

  it('tells the writer privately, with what they wrote, when the channel’s desk does not exist', async () => {
    stack = await startStack();
    await stack.app.stores.channelModes.set(itHelp, 'auto');
    stack.emulator.model.removeDesk('acme', ROUTED_DESK);
    await stack.driver.userPosts({
      userId: alice,
      channelId: itHelp,
      text: 'Printer on 4 is out of toner',
    });
    const notice = await eventually(
      () =>
        stack.double.workspace
          .ephemerals({ channel: itHelp, user: alice })
          .find((m) => JSON.stringify(m.blocks ?? []).includes('Printer on 4 is out of toner')),
      HOLD_MS + 10_000,
      'the private failure notice',
    );
    expect(notice.text).not.toBe('');
    expect(titled('alice@acme.example', 'Printer on 4 is out of toner')).toHaveLength(0);
  });

  it('refuses /ticket channel auto to a person who is not an agent, and changes nothing', async () => {
    stack = await startStack();
    const answer = await command(alice, itHelp, 'channel auto');
    expect(answer).toContain('Only service-desk agents');
    expect(await stack.app.stores.channelModes.get(itHelp)).toBeUndefined();
  });

  it('asks to be invited when /ticket channel auto is run in a channel the app is not in', async () => {
    stack = await startStack();
    const answer = await command(agent, general, 'channel auto');
    expect(answer).toContain('/invite @Service Desk');
    expect(await stack.app.stores.channelModes.get(general)).toBeUndefined();
  });

  it('stops filing after /ticket channel off, on every replica', async () => {
    stack = await startStack();
    const second = await stack.addReplica();
    await command(agent, itHelp, 'channel auto');
    const answer = await command(agent, itHelp, 'channel off');
    expect(answer).toContain('New messages here no longer become tickets');
    const stored = stack.double.workspace.postMessage(itHelp, { user: bob, text: 'Not a ticket' });
    await second.driver.event({ ...stored, channel: itHelp, channel_type: 'channel' });
    await settled();
    await second.slack.worker.runOnce();
    expect(titled('bob@acme.example', 'Not a ticket')).toHaveLength(0);
  });
});
