/**
 * An agent's reaction on a triage card acts on its ticket (TRIAGE_REACTIONS): 👀 assigns it to
 * them (as **Assign to me**), ✅ resolves it, 🔼 raises its priority one step, through the same
 * update-ticket intent as the card's buttons, so the same outbox, rules and announcements apply:
 * the triage thread's change line says what was done and by whom, and the card follows.
 * Keyed by the event's delivery identity, so Slack's retry, or the same event on two replicas,
 * does one thing; a reaction removed and added again is another request, decided against the
 * ticket as it is (assigning to the same agent again changes nothing). Removing undoes nothing.
 * Someone who is not an agent of the ticket is told privately, once, and nothing changes. A
 * reaction on anything but the app's own triage card (its `triage_card` metadata) does nothing.
 * Before Slack is answered only the event itself is looked at; the card and the person are read
 * after (no Slack call holds the answer). A crash in between loses the reaction, never makes it
 * twice: the card shows nothing changed, and reacting again does it.
 */
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { TriageReactionAction } from '../../../config.ts';
import { triageCardExtras } from '../../builders/card-ref.ts';
import { buildReactionRefusal } from '../../builders/triage-reaction-builder.ts';
import type { SlackDeps } from '../../deps.ts';
import { TRIAGE_REACTION_ACTIONS } from '../../ids.ts';
import { type UpdateTicketPayload, updateTicket } from '../../intents/update-ticket.ts';
import { eventKey } from '../../outbox/delivery-keys.ts';
import { enqueueIntent } from '../../outbox/intent-definition.ts';
import { isFirstRefusal } from '../../people/refusal-once.ts';
import type { ThreadMessage } from '../../posting/post-metadata.ts';
import { tellPrivately } from '../../posting/private-notice.ts';
import { triageCardTicket } from '../../threads/triage-threads.ts';

/** What this file's listener uses of the app's parts. */
type ListenerDeps = Pick<
  SlackDeps,
  'client' | 'logger' | 'people' | 'settings' | 'stores' | 'tasks' | 'triageThreads'
>;

type Args = SlackEventMiddlewareArgs<'reaction_added'> & AllMiddlewareArgs;

/** How long a refused reaction's delivery is remembered: Slack retries within minutes. */
const TOLD_KEEP_MS = 86_400_000;

const REQUEST_OF: Record<TriageReactionAction, UpdateTicketPayload['request']> = {
  assign: { kind: 'assign_to_me' },
  resolve: { kind: 'fields', status: 'resolved' },
  raise: { kind: 'raise_priority' },
};

/** Builds the reaction_added handler of triage cards. */
export function triageReaction(deps: ListenerDeps) {
  return async ({ event, body, context }: Args): Promise<void> => {
    // Skin tones arrive as "name::skin-tone-2"; the emoji is the same.
    const emoji = event.reaction.split('::')[0] ?? '';
    const action = deps.settings.triageReactions?.get(emoji);
    if (!action || event.item.type !== 'message') return;
    const { channel, ts } = event.item;
    const appUserId = context.botUserId;
    // A card is the app's own post: a reaction on anyone else's message costs no Slack read.
    if (appUserId && event.item_user && event.item_user !== appUserId) return;
    if (channel.startsWith('D')) return;
    const reaction = {
      deliveryKey: eventKey(body),
      userId: event.user,
      channel,
      ts,
      emoji,
      action,
      appUserId,
    };
    // Slack is read (the card, the person) once Slack is answered; the delivery key keeps a
    // retry, or the same event on another replica, to one change.
    deps.tasks.run('triage-reaction', () => actOnReaction(deps, reaction), {
      channel,
      user: event.user,
    });
  };
}

/** One reaction on a message of the app's, as the listener took it. */
interface Reaction {
  deliveryKey: string;
  userId: string;
  channel: string;
  ts: string;
  emoji: string;
  action: TriageReactionAction;
  appUserId: string | undefined;
}

// Queues the change when the message is a triage card and the person an agent of its ticket.
async function actOnReaction(deps: ListenerDeps, reaction: Reaction): Promise<void> {
  const { deliveryKey, userId, channel, ts, emoji, action, appUserId } = reaction;
  const ticketId = await deps.triageThreads.ticketForTriageThread(channel, ts, appUserId);
  if (!ticketId) return;
  if (!(await deps.people.isAgent(userId, { ticketId, channel }))) {
    await refuse(deps, deliveryKey, { userId, channel, ticketId, emoji, action });
    return;
  }
  const card = await readCard(deps, channel, ts, appUserId).catch((error: unknown) => {
    // The change is made all the same: the mirror brings the card along afterwards, reading
    // it then; only a notice to the agent goes by direct message instead.
    deps.logger.warn(
      { err: error, channel, ticket_id: ticketId },
      'could not read the triage card reacted on',
    );
    return 'unread' as const;
  });
  // Read just now: a card that is no longer the ticket's (deleted) is left alone.
  if (card !== 'unread' && card?.ticketId !== ticketId) return;
  const payload: UpdateTicketPayload = {
    ticketId,
    actorUserId: userId,
    request: REQUEST_OF[action],
    ...(card === 'unread'
      ? {}
      : { card: { kind: 'triage', channel, ts, ...triageCardExtras(card.blocks) } }),
  };
  await enqueueIntent(deps, deliveryKey, updateTicket, payload);
}

// The card as Slack has it (its blocks keep who filed the ticket and where, which the card must
// keep when it is rebuilt): a thread's replies come parent first.
async function readCard(
  deps: ListenerDeps,
  channel: string,
  ts: string,
  appUserId: string | undefined,
): Promise<{ ticketId: string; blocks: unknown[] } | undefined> {
  const replies = await deps.client.conversations.replies({
    channel,
    ts,
    limit: 1,
    include_all_metadata: true,
  });
  const message = ((replies.messages ?? []) as ThreadMessage[]).find((m) => m.ts === ts);
  const ticketId = triageCardTicket(message, appUserId);
  return ticketId ? { ticketId, blocks: message?.blocks ?? [] } : undefined;
}

// Told once per delivery (a retry, or another replica, says nothing more) and once per person,
// ticket and action within seconds (three reactions in a row are one notice per action).
async function refuse(
  deps: ListenerDeps,
  deliveryKey: string,
  refusal: {
    userId: string;
    channel: string;
    ticketId: string;
    emoji: string;
    action: TriageReactionAction;
  },
): Promise<void> {
  const { userId, channel, ticketId, emoji, action } = refusal;
  // Without the store a repeat may be told twice, which is better than not told at all.
  const told = await deps.stores.claims
    .claim(`reaction-refused:${deliveryKey}`, TOLD_KEEP_MS)
    .catch(() => undefined);
  if (told && told.state !== 'claimed') return;
  const ask = { userId, ticketId, action: TRIAGE_REACTION_ACTIONS[action] };
  if (!(await isFirstRefusal(deps.stores.claims, ask))) return;
  await tellPrivately(
    deps.client,
    { userId, channel },
    buildReactionRefusal(ticketId, emoji, action),
  );
}
