/**
 * Writing from a triage thread, over the real app, the emulator, the Slack double and Redis, with
 * the mirror running: the agents' private #it-agents is the IT desk's triage channel, and a
 * triage card for a ticket Alice filed by DM is posted there as the app (with the card's
 * metadata), its thread unknown to the links, so the app finds its ticket from the card.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTriageCard } from '../../src/slack/builders/triage-card-builder.ts';
import { REPLY_FIELDS, SHORTCUTS, VIEWS } from '../../src/slack/ids.ts';
import { triageCardMetadata } from '../../src/slack/posting/post-metadata.ts';
import { TRIAGE_CATCH_ALL } from '../../src/store/types.ts';
import { defaultIds } from '../../tools/slack-double/index.ts';
import { eventually } from '../support/eventually.ts';
import { QUICK_PLANNER, type Stack, startStack } from '../support/stack.ts';

const { agent, alice, bob, bot, botId, agentsPrivate } = defaultIds;

describe('writing from a triage thread', () => {
  let stack: Stack;
  let ticketId: string;
  let dm: string;
  let dmThread: string;
  let cardTs: string;

  beforeAll(async () => {
    stack = await startStack({ mirror: { planner: QUICK_PLANNER } });
    dm = stack.double.workspace.openIm(alice);
    const sent = await stack.driver.userPosts({
      userId: alice,
      channelId: dm,
      text: 'My laptop will not connect to the VPN',
    });
    dmThread = sent.ts;
    ticketId = await eventually(
      () => stack.app.stores.links.ticketForThread(dm, sent.ts),
      5_000,
      'the ticket filed by DM',
    );
    await stack.app.stores.triageChannels.set('it', agentsPrivate);
    const ticket = stack.emulator.model.getTicket('acme', ticketId);
    const card = stack.double.workspace.postMessage(agentsPrivate, {
      user: bot,
      bot_id: botId,
      ...buildTriageCard(ticket as never, { requester: { userId: alice } }),
      metadata: triageCardMetadata(ticketId),
    } as never);
    cardTs = card.ts;
    // Bob joins the agents' channel: not in AGENT_EMAILS, a member of IT's triage channel.
    await stack.driver.userJoins({ userId: bob, channelId: agentsPrivate });
  });
  afterAll(async () => {
    await stack.close();
  });

  const messagesOf = () => stack.emulator.model.listMessages('acme', ticketId);
  const dmThreadTexts = () =>
    (stack.double.workspace.thread(dm, dmThread) ?? []).map((m) => m.text ?? '').join('\n');

  it('an agent’s reply reaches the platform as an internal note by them, and never the requester’s thread', async () => {
    await stack.driver.userPosts({
      userId: agent,
      channelId: agentsPrivate,
      threadTs: cardTs,
      text: 'Looks like the expired VPN profile again',
    });
    const note = await eventually(
      () => messagesOf().find((m) => m.body === 'Looks like the expired VPN profile again'),
      5_000,
      'the internal note',
    );
    expect(note.internal).toBe(true);
    expect(note.author.email).toBe('sam.rivera@acme.example');
    // The mirror has had time to look at the ticket since (quick planner): still nothing.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(dmThreadTexts()).not.toContain('expired VPN profile');
    expect(messagesOf().filter((m) => m.body.includes('expired VPN profile'))).toHaveLength(1);
  });

  it('an agent’s edit in the triage thread is an "edited:" internal note', async () => {
    const posted = await stack.driver.userPosts({
      userId: agent,
      channelId: agentsPrivate,
      threadTs: cardTs,
      text: 'Profile expires on Fridy',
    });
    await eventually(
      () => messagesOf().find((m) => m.body === 'Profile expires on Fridy'),
      5_000,
      'the note',
    );
    await stack.driver.userEdits({
      userId: agent,
      channelId: agentsPrivate,
      ts: posted.ts,
      text: 'Profile expires on Friday',
    });
    const edited = await eventually(
      () => messagesOf().find((m) => m.body === 'edited: Profile expires on Friday'),
      5_000,
      'the edit',
    );
    expect(edited.internal).toBe(true);
  });

  it('a member of the private triage channel who is not in AGENT_EMAILS writes an internal note by them', async () => {
    await stack.driver.userPosts({
      userId: bob,
      channelId: agentsPrivate,
      threadTs: cardTs,
      text: 'I saw this VPN error on the 3rd floor too',
    });
    const note = await eventually(
      () => messagesOf().find((m) => m.body === 'I saw this VPN error on the 3rd floor too'),
      5_000,
      'the member’s internal note',
    );
    expect(note.internal).toBe(true);
    expect(note.author.email).toBe('bob@acme.example');
    expect(
      stack.double.workspace
        .ephemerals({ channel: agentsPrivate, user: bob })
        .filter((e) => e.text.includes("agents' room")),
    ).toEqual([]);
  });

  it('Reply to requester adds a public message by the agent, which the mirror brings to the requester', async () => {
    const clicked = await stack.driver.blockAction({
      userId: agent,
      actionId: 'reply_to_requester',
      channelId: agentsPrivate,
      messageTs: cardTs,
    });
    expect(clicked.status).toBe(200);
    const view = await eventually(
      () =>
        stack.double.workspace
          .modalStack(agent)
          .find((v) => v.callback_id === VIEWS.replyToRequester),
      5_000,
      'the reply modal',
    );
    const submitted = await stack.driver.viewSubmission({
      viewId: view.id,
      values: { [REPLY_FIELDS.text.action]: 'Please reinstall the VPN profile from the portal' },
    });
    expect(submitted.status).toBe(200);
    const reply = await eventually(
      () => messagesOf().find((m) => m.body === 'Please reinstall the VPN profile from the portal'),
      5_000,
      'the public reply',
    );
    expect(reply.internal).toBe(false);
    expect(reply.author.email).toBe('sam.rivera@acme.example');
    await eventually(
      () => dmThreadTexts().includes('Please reinstall the VPN profile'),
      10_000,
      'the reply in the requester’s thread',
    );
  });

  it('a non-agent clicking Reply to requester is refused privately and no modal opens', async () => {
    // Alice is neither an agent nor in the triage channel (a crafted click).
    await stack.driver.blockAction({
      userId: alice,
      actionId: 'reply_to_requester',
      channelId: agentsPrivate,
      messageTs: cardTs,
    });
    await eventually(
      () =>
        stack.double.workspace
          .ephemerals({ channel: agentsPrivate, user: alice })
          .some((e) => e.text.includes('Only service-desk agents can answer')),
      5_000,
      'the refusal',
    );
    expect(stack.double.workspace.modalStack(alice)).toEqual([]);
  });

  it('Send to requester on the agent’s own message in the triage thread adds it as a public message', async () => {
    const own = await stack.driver.userPosts({
      userId: agent,
      channelId: agentsPrivate,
      threadTs: cardTs,
      text: 'The new profile is live, please try again',
    });
    await eventually(
      () => messagesOf().find((m) => m.body === 'The new profile is live, please try again'),
      5_000,
      'the internal note',
    );
    await stack.driver.messageShortcut({
      callbackId: SHORTCUTS.sendToRequester,
      userId: agent,
      channelId: agentsPrivate,
      messageTs: own.ts,
    });
    await eventually(
      () =>
        messagesOf().some(
          (m) => m.body === 'The new profile is live, please try again' && !m.internal,
        ),
      5_000,
      'the public message',
    );
    await eventually(
      () => dmThreadTexts().includes('The new profile is live'),
      10_000,
      'the message in the requester’s thread',
    );
  });

  it('Send to requester on someone else’s message is refused privately and sends nothing', async () => {
    const bobs = await stack.driver.userPosts({
      userId: bob,
      channelId: agentsPrivate,
      threadTs: cardTs,
      text: 'Any news?',
    });
    await stack.driver.messageShortcut({
      callbackId: SHORTCUTS.sendToRequester,
      userId: agent,
      channelId: agentsPrivate,
      messageTs: bobs.ts,
    });
    await eventually(
      () =>
        stack.double.workspace
          .ephemerals({ channel: agentsPrivate, user: agent })
          .some((e) => e.text.includes('sends only your own message')),
      5_000,
      'the refusal',
    );
    // Bob's words are his note (he is in the triage channel), never a public message.
    expect(messagesOf().some((m) => m.body === 'Any news?' && !m.internal)).toBe(false);
  });

  /** Opens the reply modal as the agent from the card; returns the open view. */
  async function openReplyModal() {
    const before = stack.double.workspace.modalStack(agent).length;
    await stack.driver.blockAction({
      userId: agent,
      actionId: 'reply_to_requester',
      channelId: agentsPrivate,
      messageTs: cardTs,
    });
    return eventually(
      () =>
        stack.double.workspace.modalStack(agent).length > before
          ? stack.double.workspace.modalStack(agent).at(-1)
          : undefined,
      5_000,
      'the reply modal',
    );
  }

  it('a reply submitted while the platform is down is saved, said so in the modal, and sent once when it is back', async () => {
    const view = await openReplyModal();
    stack.emulator.setFaults({ down: true });
    try {
      const submitted = await stack.driver.viewSubmission({
        viewId: view.id,
        values: { [REPLY_FIELDS.text.action]: 'We are on it, sorry for the wait' },
      });
      expect(submitted.responseAction).toBe('update');
      const shown = JSON.stringify(stack.double.workspace.modalStack(agent).at(-1)?.blocks);
      expect(shown).toContain('is saved and will be sent');
    } finally {
      stack.emulator.setFaults({ down: false });
    }
    await eventually(
      () => messagesOf().some((m) => m.body === 'We are on it, sorry for the wait'),
      15_000,
      'the reply once the platform is back',
    );
    expect(messagesOf().filter((m) => m.body === 'We are on it, sorry for the wait')).toHaveLength(
      1,
    );
    stack.double.workspace.clearModals(agent);
  });

  it('Assign to me on the triage card assigns the agent and leaves a triage card showing them, its buttons kept', async () => {
    await stack.driver.blockAction({
      userId: agent,
      actionId: 'assign_to_me',
      channelId: agentsPrivate,
      messageTs: cardTs,
    });
    await eventually(
      () =>
        stack.emulator.model.getTicket('acme', ticketId).assignee_email ===
        'sam.rivera@acme.example',
      5_000,
      'the assignment',
    );
    const card = await eventually(
      () => {
        const now = stack.double.workspace.message(agentsPrivate, cardTs);
        return JSON.stringify(now?.blocks).includes(`<@${agent}>`) ? now : undefined;
      },
      5_000,
      'the card showing the assignee',
    );
    const blocks = JSON.stringify(card.blocks);
    expect(blocks).toContain('triage_card_actions');
    expect(blocks).toContain('reply_to_requester');
    expect(blocks).toContain(`<@${alice}>`);
    expect(card.metadata?.event_type).toBe('triage_card');
  });

  it('a member of the triage channel may use its card’s buttons: Reply to requester opens for them', async () => {
    await stack.driver.blockAction({
      userId: bob,
      actionId: 'reply_to_requester',
      channelId: agentsPrivate,
      messageTs: cardTs,
    });
    const view = await eventually(
      () =>
        stack.double.workspace
          .modalStack(bob)
          .find((v) => v.callback_id === VIEWS.replyToRequester),
      5_000,
      'the reply modal',
    );
    await stack.driver.viewClosed({ viewId: view.id, userId: bob });
  });

  it('a member who leaves the triage channel loses the right at once: their reply is not sent, their click refused', async () => {
    // Bob opens the reply form while a member, then leaves the channel.
    const before = stack.double.workspace.modalStack(bob).length;
    await stack.driver.blockAction({
      userId: bob,
      actionId: 'reply_to_requester',
      channelId: agentsPrivate,
      messageTs: cardTs,
    });
    const view = await eventually(
      () =>
        stack.double.workspace.modalStack(bob).length > before
          ? stack.double.workspace.modalStack(bob).at(-1)
          : undefined,
      5_000,
      'the reply modal',
    );
    await stack.driver.userLeaves({ userId: bob, channelId: agentsPrivate });

    const submitted = await stack.driver.viewSubmission({
      viewId: view.id,
      values: { [REPLY_FIELDS.text.action]: 'Sent after leaving the channel' },
    });
    expect(submitted.responseAction).toBe('update');
    await stack.driver.blockAction({
      userId: bob,
      actionId: 'assign_to_me',
      channelId: agentsPrivate,
      messageTs: cardTs,
    });
    await eventually(
      () =>
        stack.double.workspace
          .ephemerals({ channel: agentsPrivate, user: bob })
          .some((e) => e.text.includes('Only service-desk agents')),
      5_000,
      'the refusal',
    );
    expect(messagesOf().some((m) => m.body === 'Sent after leaving the channel')).toBe(false);
    await stack.driver.viewClosed({ viewId: view.id, userId: bob });
  });

  it('a person who joins the triage channel gets the right at once, as Slack announces the join', async () => {
    // The app read the channel's members before (Bob was in, then left): only the event tells.
    await stack.driver.userJoins({ userId: bob, channelId: agentsPrivate });
    const before = stack.double.workspace.modalStack(bob).length;
    await stack.driver.blockAction({
      userId: bob,
      actionId: 'reply_to_requester',
      channelId: agentsPrivate,
      messageTs: cardTs,
    });
    const view = await eventually(
      () =>
        stack.double.workspace.modalStack(bob).length > before
          ? stack.double.workspace.modalStack(bob).at(-1)
          : undefined,
      5_000,
      'the reply modal',
    );
    expect(view.callback_id).toBe(VIEWS.replyToRequester);
    await stack.driver.viewClosed({ viewId: view.id, userId: bob });
  });

  // Last: it closes the ticket.
  it('a reply the platform refuses (the ticket closed) shows the reason in the modal, the text still in it', async () => {
    const view = await openReplyModal();
    stack.emulator.model.updateTicket('acme', ticketId, { status: 'closed' });
    const before = messagesOf().length;
    const submitted = await stack.driver.viewSubmission({
      viewId: view.id,
      values: { [REPLY_FIELDS.text.action]: 'One more thing about the VPN' },
    });
    expect(submitted.responseAction).toBe('errors');
    const open = stack.double.workspace.modalStack(agent).at(-1);
    expect(open?.id).toBe(view.id);
    expect(JSON.stringify(open?.state)).toContain('One more thing about the VPN');
    expect(messagesOf()).toHaveLength(before);
  });

  // Last on this stack: the app keeps the 7-second Retry-After, so no modal opens for 7 s after.
  it('Reply to requester while Slack rate-limits the modal tells the agent privately', async () => {
    stack.double.failNext('views.open', 'ratelimited', { retryAfterSec: 7 });
    await stack.driver.blockAction({
      userId: agent,
      actionId: 'reply_to_requester',
      channelId: agentsPrivate,
      messageTs: cardTs,
    });
    await eventually(
      () =>
        stack.double.workspace
          .ephemerals({ user: agent })
          .some((e) => e.text.includes('the form could not open')),
      5_000,
      'the agent told the form did not open',
    );
  });
});

/**
 * The same, on the triage card the app posts itself (the triage feed, linked as the ticket's
 * triage thread), where the mirror brings the ticket's conversation: every message shows there
 * once, whichever way it was written.
 */
describe('writing in the triage thread the mirror keeps', () => {
  const SECRET = 'whsec-e2e-triage-writing-0123456789';
  let stack: Stack;
  afterAll(async () => {
    await stack?.close();
  });

  it('shows an agent’s note, a modal reply and a message sent with the shortcut once each in the triage thread', async () => {
    stack = await startStack({ webhookSecret: SECRET, mirror: { planner: QUICK_PLANNER } });
    stack.emulator.setWebhooks({ announceCreated: true });
    await stack.app.stores.triageChannels.set(TRIAGE_CATCH_ALL, agentsPrivate);
    // The feed marks when it first saw the channel; tickets before that get no card.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const dm = stack.double.workspace.openIm(alice);
    const sent = await stack.driver.userPosts({
      userId: alice,
      channelId: dm,
      text: 'Printer on floor 2 prints blank pages',
    });
    const ticketId = await eventually(
      () => stack.app.stores.links.ticketForThread(dm, sent.ts),
      5_000,
      'the ticket',
    );
    const card = await eventually(
      async () => (await stack.app.stores.links.threadsForTicket(ticketId)).find((t) => t.triage),
      15_000,
      'the triage card',
    );
    const triageTexts = (text: string) =>
      (stack.double.workspace.thread(agentsPrivate, card.threadTs) ?? []).filter((m) =>
        m.text?.includes(text),
      );
    const requesterTexts = (text: string) =>
      (stack.double.workspace.thread(dm, sent.ts) ?? []).filter((m) => m.text?.includes(text));
    const messages = () => stack.emulator.model.listMessages('acme', ticketId);

    await stack.driver.userPosts({
      userId: agent,
      channelId: agentsPrivate,
      threadTs: card.threadTs,
      text: 'Toner cartridge is probably empty',
    });
    await eventually(
      () => messages().find((m) => m.body === 'Toner cartridge is probably empty'),
      5_000,
      'the note',
    );

    const clicked = await stack.driver.blockAction({
      userId: agent,
      actionId: 'reply_to_requester',
      channelId: agentsPrivate,
      messageTs: card.threadTs,
    });
    expect(clicked.status).toBe(200);
    const view = await eventually(
      () =>
        stack.double.workspace
          .modalStack(agent)
          .find((v) => v.callback_id === VIEWS.replyToRequester),
      5_000,
      'the reply modal',
    );
    await stack.driver.viewSubmission({
      viewId: view.id,
      values: { [REPLY_FIELDS.text.action]: 'A technician is on the way with toner' },
    });

    const own = await stack.driver.userPosts({
      userId: agent,
      channelId: agentsPrivate,
      threadTs: card.threadTs,
      text: 'Toner replaced, please print a test page',
    });
    await eventually(
      () => messages().find((m) => m.body === 'Toner replaced, please print a test page'),
      5_000,
      'the second note',
    );
    await stack.driver.messageShortcut({
      callbackId: SHORTCUTS.sendToRequester,
      userId: agent,
      channelId: agentsPrivate,
      messageTs: own.ts,
    });

    await eventually(
      () => requesterTexts('A technician is on the way').length === 1,
      15_000,
      'the modal reply for Alice',
    );
    await eventually(
      () => requesterTexts('Toner replaced').length === 1,
      15_000,
      'the shortcut message for Alice',
    );
    await eventually(
      () => triageTexts('A technician is on the way').length === 1,
      15_000,
      'the modal reply in the triage thread',
    );
    // The mirror has looked again since (quick planner): nothing came twice.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(triageTexts('Toner cartridge is probably empty')).toHaveLength(1);
    expect(triageTexts('A technician is on the way')).toHaveLength(1);
    expect(triageTexts('Toner replaced')).toHaveLength(1);
    expect(requesterTexts('Toner cartridge')).toHaveLength(0);
    expect(requesterTexts('A technician is on the way')).toHaveLength(1);
    expect(requesterTexts('Toner replaced')).toHaveLength(1);
  });
});
