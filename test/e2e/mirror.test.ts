/**
 * The mirror end to end: the emulator's tickets change, and the real app (with its Redis
 * schedule, rate budget and mirror worker) brings the changes into the Slack double's threads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../../src/contract/schemas.ts';
import { statusLabel } from '../../src/slack/builders/ticket-labels.ts';
import { ACTIONS } from '../../src/slack/ids.ts';
import { defaultIds, type SlackMessage } from '../../tools/slack-double/index.ts';
import { eventually } from '../support/eventually.ts';
import { modalOpenedBy, QUICK_PLANNER, type Stack, startStack } from '../support/stack.ts';

const { alice, bob, itHelp } = defaultIds;
const SAM = 'sam.rivera@acme.example';

const planner = QUICK_PLANNER;

// The status field as a card shows it, in the JSON of its blocks.
const statusField = (status: string) => JSON.stringify(`*Status*\n${statusLabel(status)}`);
const actionIds = (post: SlackMessage | undefined) =>
  ((post?.blocks ?? []) as { type: string; elements?: { action_id?: string }[] }[])
    .filter((block) => block.type === 'actions')
    .flatMap((block) => (block.elements ?? []).map((element) => element.action_id));

function metadataOf(post: SlackMessage): { ticket_id?: unknown; message_id?: unknown } {
  return (post.metadata?.event_payload ?? {}) as { ticket_id?: unknown; message_id?: unknown };
}

describe('the mirror', () => {
  let stack: Stack;
  // The stack's clock (the app's and the platform's): real time, plus what a test moved it on by.
  const skew = { ms: 0 };
  const now = () => Date.now() + skew.ms;
  beforeAll(async () => {
    stack = await startStack({
      // The platform's AI agent answers new tickets and requester messages quickly.
      emulator: { aiDelayMs: 300, now },
      now,
      budget: { perMinute: 5_000, perHour: 50_000 },
      mirror: { planner },
      // Its tests file many tickets by DM for the same people, some of them resolved: each DM
      // here is a new request, not a question about the last resolution.
      reopenWindow: '0',
    });
  });
  afterAll(async () => {
    await stack?.close();
  });

  /** Files a ticket from a direct message; returns the DM, its thread and the ticket. */
  async function fileTicket(userId: string, text: string) {
    const dm = stack.double.workspace.openIm(userId);
    const sent = await stack.driver.userPosts({ userId, channelId: dm, text });
    const ticketId = await eventually(
      () => stack.app.stores.links.ticketForThread(dm, sent.ts),
      10_000,
      'the ticket linked to the DM thread',
    );
    return { dm, threadTs: sent.ts, ticketId };
  }

  /**
   * Moves the clock on by `ms`, a second at a time, letting the app run a moment at each: its
   * mirror looks at every ticket due by then, as it would have over that time.
   */
  async function timePasses(ms: number) {
    for (let passed = 0; passed < ms; passed += 1_000) {
      skew.ms += Math.min(1_000, ms - passed);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  const threadOf = (dm: string, ts: string) => stack.double.workspace.thread(dm, ts) ?? [];
  const postOf = (dm: string, ts: string, itemId: string) =>
    threadOf(dm, ts).find((m) => metadataOf(m).message_id === itemId);
  const postsOf = (itemId: string) =>
    stack.double
      .callsTo('chat.postMessage')
      .filter((call) => String(call.args.metadata ?? '').includes(`"message_id":"${itemId}"`));

  it('brings an agent’s reply into the thread, named and escaped, with its metadata', async () => {
    const t = await fileTicket(alice, 'The projector in room 2 shows no picture');
    const reply = stack.emulator.model.addAgentReply('acme', t.ticketId, {
      agentEmail: SAM,
      body: 'I will bring a new cable <!channel> & check it',
    });
    const post = await eventually(
      () => postOf(t.dm, t.threadTs, reply.id),
      15_000,
      'the reply in the thread',
    );
    const blocks = JSON.stringify(post.blocks);
    expect(blocks).toContain('Sam Rivera');
    expect(blocks).toContain('I will bring a new cable &lt;!channel&gt; &amp; check it');
    expect(blocks).not.toContain('<!channel>');
    expect(post.metadata).toEqual({
      event_type: 'servicedesk_ticket',
      event_payload: { ticket_id: t.ticketId, message_id: reply.id },
    });
  });

  it('labels the AI agent’s answer, links its sources and offers a person', async () => {
    const t = await fileTicket(bob, 'I forgot my password and I am locked out');
    const answer = await eventually(
      () =>
        stack.emulator.model
          .listMessages('acme', t.ticketId)
          .find((m) => m.author.type === 'ai_agent'),
      10_000,
      'the AI agent’s answer on the platform',
    );
    const post = await eventually(
      () => postOf(t.dm, t.threadTs, answer.id),
      15_000,
      'the answer in the thread',
    );
    const blocks = JSON.stringify(post.blocks);
    const source = answer.sources[0];
    if (!source) throw new Error('the AI answer has no source');
    expect(blocks).toContain('AI');
    expect(blocks).toContain(`<${source.url}|${source.title}>`);
    expect(post.blocks).toContainEqual({
      type: 'actions',
      block_id: expect.any(String),
      elements: [
        expect.objectContaining({
          type: 'button',
          action_id: 'talk_to_person',
          value: t.ticketId,
        }),
      ],
    });
  });

  it('offers no second “Talk to a person” on the AI’s hand-off after the requester asked for one', async () => {
    const t = await fileTicket(bob, 'How do I set up MFA with the authenticator app?');
    const answer = await eventually(
      () =>
        stack.emulator.model
          .listMessages('acme', t.ticketId)
          .find((m) => m.author.type === 'ai_agent'),
      10_000,
      'the AI agent’s answer on the platform',
    );
    const post = await eventually(
      () => postOf(t.dm, t.threadTs, answer.id),
      15_000,
      'the answer in the thread',
    );
    expect(actionIds(post)).toContain('talk_to_person');
    await stack.driver.blockAction({
      userId: bob,
      actionId: 'talk_to_person',
      channelId: t.dm,
      messageTs: post.ts,
    });
    const handOff = await eventually(
      () =>
        stack.emulator.model
          .listMessages('acme', t.ticketId)
          .find((m) => m.author.type === 'ai_agent' && m.body.includes('passed this to')),
      10_000,
      'the AI’s hand-off on the platform',
    );
    const handOffPost = await eventually(
      () => postOf(t.dm, t.threadTs, handOff.id),
      15_000,
      'the hand-off in the thread',
    );
    expect(actionIds(handOffPost)).not.toContain('talk_to_person');
  });

  /** Bob's ticket with the AI's first answer posted in its thread, offering a person. */
  async function answeredTicket(text: string) {
    const t = await fileTicket(bob, text);
    const answer = await eventually(
      () =>
        stack.emulator.model
          .listMessages('acme', t.ticketId)
          .find((m) => m.author.type === 'ai_agent'),
      10_000,
      'the AI agent’s answer on the platform',
    );
    const post = await eventually(
      () => postOf(t.dm, t.threadTs, answer.id),
      15_000,
      'the answer in the thread',
    );
    expect(actionIds(post)).toContain('talk_to_person');
    return { ...t, answer, post };
  }

  const personAnnounced = (dm: string, threadTs: string) =>
    threadOf(dm, threadTs).some((m) => m.text?.includes('asked to talk to a person'));

  it('takes “Talk to a person” off the AI’s earlier answer once the requester asked for one, keeping the answer', async () => {
    const t = await answeredTicket('Which VPN client do I install on a new laptop?');
    await stack.driver.blockAction({
      userId: bob,
      actionId: 'talk_to_person',
      channelId: t.dm,
      messageTs: t.post.ts,
    });
    await eventually(
      () => !actionIds(postOf(t.dm, t.threadTs, t.answer.id)).includes('talk_to_person'),
      10_000,
      'the earlier answer without the button',
    );
    const after = postOf(t.dm, t.threadTs, t.answer.id);
    expect(after?.text).toBe(t.post.text);
    expect(JSON.stringify(after?.blocks)).toContain('Sources:');
    expect(metadataOf(after as SlackMessage)).toEqual(metadataOf(t.post));
  });

  it('asks for the person and announces it when Slack answers 500 to taking the button off', async () => {
    const t = await answeredTicket('Where do I find the Wi-Fi password for guests?');
    stack.double.failNext('chat.update', 'internal_error', {
      status: 500,
      times: 2,
      when: (args) => args.ts === t.post.ts,
    });
    await stack.driver.blockAction({
      userId: bob,
      actionId: 'talk_to_person',
      channelId: t.dm,
      messageTs: t.post.ts,
    });
    await eventually(() => personAnnounced(t.dm, t.threadTs), 10_000, 'the request announced');
    expect(
      stack.emulator.model
        .listMessages('acme', t.ticketId)
        .filter((m) => m.body.includes('would like to talk to a person')),
    ).toHaveLength(1);
    await eventually(
      () => stack.double.callsTo('chat.update').filter((c) => c.injected).length === 2,
      5_000,
      'the change tried',
    );
    expect(
      threadOf(t.dm, t.threadTs).filter((m) => m.text?.includes('asked to talk to a person')),
    ).toHaveLength(1);
  });

  it('names the person who changed the status from Slack, on the platform and in the thread', async () => {
    const t = await fileTicket(alice, 'Headset microphone is not detected');
    const card = await eventually(
      () => threadOf(t.dm, t.threadTs).find((m) => actionIds(m).includes('mark_resolved')),
      10_000,
      'the card with Mark resolved',
    );
    await stack.driver.blockAction({
      userId: alice,
      actionId: 'mark_resolved',
      channelId: t.dm,
      messageTs: card.ts,
    });
    const change = await eventually(
      () =>
        stack.emulator.model
          .listActivity('acme', t.ticketId)
          .find((a) => a.type === 'status_changed' && a.to === 'resolved'),
      10_000,
      'the change on the platform',
    );
    expect(change.actor).toBe('alice@acme.example');
    const line = await eventually(
      () => postOf(t.dm, t.threadTs, change.id),
      15_000,
      'the change in the thread',
    );
    expect(line.text).toContain('by Alice Archer, from Slack');
  });

  it('names a change made on the platform by its person, not as made from Slack', async () => {
    const t = await fileTicket(alice, 'Second monitor stays black');
    stack.emulator.model.updateTicket('acme', t.ticketId, { priority: 'high' }, SAM);
    const change = await eventually(
      () =>
        stack.emulator.model
          .listActivity('acme', t.ticketId)
          .find((a) => a.type === 'priority_changed'),
      10_000,
      'the change on the platform',
    );
    const line = await eventually(
      () => postOf(t.dm, t.threadTs, change.id),
      15_000,
      'the change in the thread',
    );
    expect(line.text).toContain('by Sam Rivera');
    expect(line.text).not.toContain('from Slack');
  });

  it('does not echo a reply written in the thread back into it', async () => {
    const t = await fileTicket(alice, 'Docking station flickers at my desk');
    await stack.driver.userPosts({
      userId: alice,
      channelId: t.dm,
      text: 'It started after the update',
      threadTs: t.threadTs,
    });
    const added = await eventually(
      () =>
        stack.emulator.model
          .listMessages('acme', t.ticketId)
          .find((m) => m.body === 'It started after the update'),
      10_000,
      'the reply on the platform',
    );
    const all = () => stack.emulator.model.listMessages('acme', t.ticketId);
    // The mirror has read past the reply (and its answers) when its cursor has.
    await eventually(
      async () =>
        ((await stack.app.stores.mirror.state(t.ticketId))?.messageCursor ?? 0) >= all().length,
      15_000,
      'the mirror reading past the reply',
    );
    expect(postsOf(added.id)).toHaveLength(0);
    expect(
      threadOf(t.dm, t.threadTs).filter((m) => m.bot_id && m.text.includes('It started')),
    ).toEqual([]);
  });

  it('never posts an internal note', async () => {
    const t = await fileTicket(bob, 'Keyboard is missing the E key');
    const note = stack.emulator.model.addAgentReply('acme', t.ticketId, {
      agentEmail: SAM,
      body: 'Internal: this user broke two keyboards already',
      internal: true,
    });
    const reply = stack.emulator.model.addAgentReply('acme', t.ticketId, {
      agentEmail: SAM,
      body: 'A new keyboard is on its way',
    });
    await eventually(() => postOf(t.dm, t.threadTs, reply.id), 15_000, 'the public reply');
    expect(postsOf(note.id)).toHaveLength(0);
    expect(JSON.stringify(threadOf(t.dm, t.threadTs))).not.toContain('broke two keyboards');
  });

  it('announces a status change in the thread and tells the requester directly, with Reopen', async () => {
    const t = await fileTicket(alice, 'Monitor arm is loose');
    stack.emulator.model.updateTicket('acme', t.ticketId, { status: 'resolved' }, SAM);
    const change = stack.emulator.model
      .listActivity('acme', t.ticketId)
      .filter((a) => a.type === 'status_changed' && a.to === 'resolved')
      .at(-1);
    if (!change) throw new Error('no status change recorded');
    const line = await eventually(
      () => postOf(t.dm, t.threadTs, change.id),
      15_000,
      'the change in the thread',
    );
    expect(line.text).toContain('Resolved');
    expect(line.text).toContain('Sam Rivera');
    const notice = await eventually(
      () =>
        stack.double.workspace
          .history(t.dm)
          // Other tests' notices in the same DM may still be arriving: this ticket's only.
          .find((m) => m.text.includes('was resolved') && m.text.includes(t.ticketId)),
      15_000,
      'the requester’s direct message',
    );
    expect(JSON.stringify(notice.blocks)).toContain('"action_id":"reopen_ticket"');
    expect(JSON.stringify(notice.blocks)).toContain(`"value":"${t.ticketId}"`);
  });

  it('keeps a /ticket card in the channel true as the ticket changes on the platform, and still announces the change', async () => {
    const view = await modalOpenedBy(stack, alice, () =>
      stack.driver.slashCommand({ userId: alice, channelId: itHelp }),
    );
    await stack.driver.viewSubmission({
      viewId: view.id,
      userId: alice,
      values: { title_input: 'Paper jam in the third floor printer' },
    });
    const card = await eventually(
      () =>
        stack.double.workspace
          .messages(itHelp)
          .find((m) => JSON.stringify(m.blocks ?? []).includes('Paper jam in the third floor')),
      10_000,
      'the card in #it-help',
    );
    const ticketId = await eventually(
      () => stack.app.stores.links.ticketForThread(itHelp, card.ts),
      5_000,
      'the card’s thread linked',
    );
    const cardNow = () => stack.double.workspace.message(itHelp, card.ts);
    // The AI agent has no self-service answer for a printer: it hands the ticket to a team.
    await eventually(
      () => JSON.stringify(cardNow()?.blocks).includes(statusField('in_progress')),
      15_000,
      'the card showing In progress',
    );
    stack.emulator.model.updateTicket('acme', ticketId, { status: 'resolved' }, SAM);
    const change = stack.emulator.model
      .listActivity('acme', ticketId)
      .filter((a) => a.type === 'status_changed' && a.to === 'resolved')
      .at(-1);
    if (!change) throw new Error('no status change recorded');
    const line = await eventually(
      () => postOf(itHelp, card.ts, change.id),
      15_000,
      'the change in the card’s thread',
    );
    expect(line.text).toContain('Resolved');
    await eventually(
      () => JSON.stringify(cardNow()?.blocks).includes(statusField('resolved')),
      15_000,
      'the card showing Resolved',
    );
    expect(actionIds(cardNow())).not.toContain(ACTIONS.markResolved);
    expect(actionIds(cardNow())).toContain(ACTIONS.reopenTicket);
    expect(JSON.stringify(cardNow()?.blocks)).toContain(`filed *${ticketId}*`);
  });

  it('posts each message once with two mirror workers polling the same tickets', async () => {
    await stack.addReplica();
    const tickets = [
      await fileTicket(alice, 'Two workers: badge reader at door 3'),
      await fileTicket(bob, 'Two workers: desk phone has no tone'),
    ];
    const replies: { dm: string; threadTs: string; message: Message }[] = [];
    for (let i = 0; i < 4; i++) {
      for (const t of tickets) {
        const message = stack.emulator.model.addAgentReply('acme', t.ticketId, {
          agentEmail: SAM,
          body: `Update ${i + 1} on ${t.ticketId}`,
        });
        replies.push({ dm: t.dm, threadTs: t.threadTs, message });
      }
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    await eventually(
      () => replies.every((r) => postOf(r.dm, r.threadTs, r.message.id)),
      20_000,
      'every reply in its thread',
    );
    // Both workers go on polling these tickets for a while; nothing may be posted again.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    for (const r of replies) expect(postsOf(r.message.id)).toHaveLength(1);
    for (const t of tickets) {
      const order = threadOf(t.dm, t.threadTs)
        .map((m) => metadataOf(m).message_id)
        .filter((id) => replies.some((r) => r.message.id === id));
      expect(order).toEqual(
        replies.filter((r) => r.dm === t.dm && r.threadTs === t.threadTs).map((r) => r.message.id),
      );
    }
  });

  it('posts a message once with three replicas when Slack answers its post 429, after the Retry-After', async () => {
    await stack.addReplica();
    await stack.addReplica();
    const t = await fileTicket(alice, 'Three replicas: scanner will not scan');
    const before = stack.double.callsTo('chat.postMessage').length;
    stack.double.failNext('chat.postMessage', 'ratelimited', { retryAfterSec: 3, times: 2 });
    const started = Date.now();
    const message = stack.emulator.model.addAgentReply('acme', t.ticketId, {
      agentEmail: SAM,
      body: 'Try the scanner on the second floor meanwhile',
    });
    await eventually(() => postOf(t.dm, t.threadTs, message.id), 20_000, 'the reply in the thread');
    expect(Date.now() - started).toBeGreaterThanOrEqual(3_000);
    const limited = stack.double
      .callsTo('chat.postMessage')
      .slice(before)
      .filter((c) => c.injected);
    expect(limited.length).toBeGreaterThan(0);
    // Every replica goes on polling the ticket; nothing may be posted again.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(postsOf(message.id).filter((call) => !call.injected)).toHaveLength(1);
    expect(
      threadOf(t.dm, t.threadTs).filter((m) => metadataOf(m).message_id === message.id),
    ).toHaveLength(1);
  });

  it('brings a 23,000-character agent message into the thread as numbered parts, each once and in order, nothing cut, with Slack answering 429 between parts', async () => {
    const t = await fileTicket(bob, 'Parts: the VPN drops every hour');
    const body = Array.from({ length: 900 }, (_, i) => `Step ${i + 1}: check the tunnel`)
      .join('\n')
      .padEnd(23_000, '.');
    // The second part's first post is refused, once it is sent: the first part is in by then.
    stack.double.failNext('chat.postMessage', 'ratelimited', {
      retryAfterSec: 2,
      when: (args) => String(args.metadata ?? '').includes('"part":2'),
    });
    const message = stack.emulator.model.addAgentReply('acme', t.ticketId, {
      agentEmail: SAM,
      body,
    });
    const partsOf = () =>
      threadOf(t.dm, t.threadTs).filter((m) => metadataOf(m).message_id === message.id);
    await eventually(() => partsOf().length >= 3 || undefined, 30_000, 'three parts in the thread');
    // Every replica goes on polling the ticket; nothing may be posted again.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const parts = partsOf();
    expect(parts.map((m) => m.metadata?.event_payload)).toEqual(
      [1, 2, 3].map((part) => ({
        ticket_id: t.ticketId,
        message_id: message.id,
        part,
        parts: 3,
      })),
    );
    expect(parts.map((m) => JSON.stringify(m.blocks?.[0]))).toEqual([
      expect.stringContaining('(1/3)'),
      expect.stringContaining('(2/3)'),
      expect.stringContaining('(3/3)'),
    ]);
    const shown = parts
      .flatMap((m) => (m.blocks ?? []) as { type: string; text?: { text: string } }[])
      .filter((block) => block.type === 'section')
      .map((block) => block.text?.text ?? '')
      .join('');
    expect(shown).toBe(body);
    const refused = postsOf(message.id).filter((call) => call.injected);
    expect(refused).toHaveLength(1);
    expect(postsOf(message.id).filter((call) => !call.injected)).toHaveLength(3);
  });

  const pollFailures = () =>
    stack.logs.filter((line) => line.includes('mirror poll failed; will retry')).length;

  it('loses nothing while the platform is down for a whole minute, and keeps the order', async () => {
    const t = await fileTicket(bob, 'Conference room screen stays black');
    stack.emulator.setFaults({ down: true });
    const during: Message[] = [];
    const started = now();
    const failuresBefore = pollFailures();
    for (let i = 0; i < 3; i++) {
      during.push(
        stack.emulator.model.addAgentReply('acme', t.ticketId, {
          agentEmail: SAM,
          body: `While the platform was down, step ${i + 1}`,
        }),
      );
      await timePasses(5_000);
    }
    const hidden = stack.emulator.model.addAgentReply('acme', t.ticketId, {
      agentEmail: SAM,
      body: 'Internal: waiting for the vendor',
      internal: true,
    });
    stack.emulator.model.updateTicket('acme', t.ticketId, { priority: 'high' }, SAM);
    // A whole minute on the app's clock: the mirror keeps failing and backing off all along.
    await timePasses(60_000 - (now() - started));
    expect(during.some((m) => postOf(t.dm, t.threadTs, m.id))).toBe(false);
    expect(pollFailures() - failuresBefore).toBeGreaterThanOrEqual(10);
    stack.emulator.setFaults({ down: false });

    await eventually(
      () => during.every((m) => postOf(t.dm, t.threadTs, m.id)),
      20_000,
      'every reply once the platform is back',
    );
    const priority = stack.emulator.model
      .listActivity('acme', t.ticketId)
      .find((a) => a.type === 'priority_changed' && a.to === 'high');
    if (!priority) throw new Error('no priority change recorded');
    await eventually(() => postOf(t.dm, t.threadTs, priority.id), 20_000, 'the change');
    const order = threadOf(t.dm, t.threadTs)
      .map((m) => metadataOf(m).message_id)
      .filter((id) => during.some((m) => m.id === id));
    expect(order).toEqual(during.map((m) => m.id));
    for (const m of during) expect(postsOf(m.id)).toHaveLength(1);
    expect(postsOf(hidden.id)).toHaveLength(0);
  }, 60_000);
});
