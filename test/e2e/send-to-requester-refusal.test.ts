/**
 * The message shortcut "Send to requester" is offered by Slack on every message, to everyone:
 * someone who is not an agent of the ticket learns what it is for. Over the real app, the
 * emulator, the Slack double and Redis, on a triage card left in a public channel (a triage
 * channel made public makes no one an agent).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTriageCard } from '../../src/slack/builders/triage-card-builder.ts';
import { SHORTCUTS } from '../../src/slack/ids.ts';
import { triageCardMetadata } from '../../src/slack/posting/post-metadata.ts';
import { defaultIds } from '../../tools/slack-double/index.ts';
import { eventually } from '../support/eventually.ts';
import { type Stack, startStack } from '../support/stack.ts';

const { alice, bot, botId, itHelp } = defaultIds;

describe('Send to requester used by someone who is not an agent', () => {
  let stack: Stack;
  let ticketId: string;
  let cardTs: string;

  beforeAll(async () => {
    stack = await startStack();
    const created = stack.emulator.model.createTicket('acme', {
      title: 'Desk phone has no dial tone',
      description: 'Since this morning',
      requester_email: 'bob@acme.example',
    } as never);
    ticketId = created.id;
    cardTs = stack.double.workspace.postMessage(itHelp, {
      user: bot,
      bot_id: botId,
      ...buildTriageCard(created as never, {}),
      metadata: triageCardMetadata(ticketId),
    } as never).ts;
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('says what it is for, and sends nothing', async () => {
    const own = await stack.driver.userPosts({
      userId: alice,
      channelId: itHelp,
      threadTs: cardTs,
      text: 'Mine has no dial tone either',
    });
    await stack.driver.messageShortcut({
      callbackId: SHORTCUTS.sendToRequester,
      userId: alice,
      channelId: itHelp,
      messageTs: own.ts,
    });
    const refusal = await eventually(
      () =>
        stack.double.workspace
          .ephemerals({ user: alice })
          .find((e) => e.text.includes('*Send to requester* is for agents')),
      10_000,
      'the refusal',
    );
    expect(refusal.text).toContain('answering from a triage thread');
    expect(
      stack.emulator.model
        .listMessages('acme', ticketId)
        .some((m) => m.body.includes('no dial tone either') && !m.internal),
    ).toBe(false);
  });
});
