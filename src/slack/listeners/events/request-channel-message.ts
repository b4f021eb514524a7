/**
 * A request channel's messages: a new top-level message a person writes in a channel set to
 * auto is queued, held a few seconds, to be filed as a DM to the app is (the same create-ticket
 * intent, answered in the message's thread); a message deleted within the hold is withdrawn.
 * Both are keyed by the message (channel and ts), so Slack's retries, a second event for the
 * same message and other replicas never file it twice.
 */
import type { JsonValue } from '../../../store/types.ts';
import type { SlackDeps } from '../../deps.ts';
import type { CreateTicketPayload } from '../../intents/create-ticket.ts';
import {
  type FileChannelMessagePayload,
  fileChannelMessage,
  heldMessageKey,
  withdrawMessage,
} from '../../intents/file-channel-message.ts';
import {
  channelModeOf,
  DEFAULT_AUTO_HOLD_MS,
  isRequestChannelType,
} from '../../tickets/channel-modes.ts';
import type { CheckedMessageEvent } from './event-shapes.ts';

type Deps = Pick<SlackDeps, 'logger' | 'settings' | 'stores'>;

/** A person's new top-level message, as the message listener has read it. */
export interface TopLevelMessage {
  channel: string;
  channelType: string | undefined;
  ts: string;
  user: string;
  /** The ticket's fields as a DM would give them (title, and the body with its files). */
  ticket: { title: string; description: string };
}

/**
 * Queues the message for filing when its channel is a request channel; false (nothing queued)
 * when it is not.
 */
export async function holdRequestChannelMessage(
  deps: Deps,
  message: TopLevelMessage,
): Promise<boolean> {
  if (!isRequestChannelType(message.channelType)) return false;
  if ((await channelModeOf(deps, message.channel)) !== 'auto') return false;
  const { channel, ts, user } = message;
  const desk = deps.settings.channelDesks.get(channel);
  const filing: CreateTicketPayload = {
    actorUserId: user,
    requesterUserIds: [user],
    ticket: { ...message.ticket, ...(desk ? { desk_id: desk } : {}) },
    reply: { kind: 'thread', channel, threadTs: ts },
    tellDelayPrivately: true,
  };
  const payload: FileChannelMessagePayload = { channel, ts, filing };
  const checked = fileChannelMessage.schema.parse(payload) as JsonValue;
  const holdMs = deps.settings.autoChannelHoldMs ?? DEFAULT_AUTO_HOLD_MS;
  const key = heldMessageKey(channel, ts);
  const outcome = await deps.stores.outbox.enqueue(key, fileChannelMessage.kind, checked, {
    runAt: Date.now() + holdMs,
  });
  if (!outcome.enqueued)
    deps.logger.debug({ delivery_key: key, state: outcome.state }, 'duplicate suppressed');
  return true;
}

/**
 * Withdraws a person's deleted top-level message in a request channel from filing, if it was
 * not queued for filing yet (its hold not over).
 */
export async function withdrawDeletedMessage(
  deps: Deps,
  event: CheckedMessageEvent,
): Promise<void> {
  const deleted = event.previous_message;
  if (!deleted?.ts || !deleted.user || deleted.bot_id) return;
  // A reply's deletion concerns its thread's ticket, not a filing.
  if (deleted.thread_ts && deleted.thread_ts !== deleted.ts) return;
  if (!isRequestChannelType(event.channel_type)) return;
  if ((await channelModeOf(deps, event.channel)) !== 'auto') return;
  await withdrawMessage(deps, event.channel, deleted.ts);
}
