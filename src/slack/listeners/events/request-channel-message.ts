/**
 * A request channel's messages: a new top-level message a person writes in a channel set to
 * auto is queued, held a few seconds, to be filed as a DM to the app is (the same create-ticket
 * intent, answered in the message's thread); a message deleted within the hold is withdrawn.
 * An edit within the hold is filed with the message; one that comes later goes on the ticket
 * (a direct message's edit too, `takeUnfiledEdit`).
 * All are keyed by the message (channel and ts), so Slack's retries, a second event for the
 * same message and other replicas never file it twice.
 */
import type { JsonValue } from '../../../store/types.ts';
import type { SlackDeps } from '../../deps.ts';
import {
  type CreateTicketPayload,
  createTicket,
  directMessageFiling,
} from '../../intents/create-ticket.ts';
import {
  type AddHeldEditPayload,
  addHeldEdit,
  type FileChannelMessagePayload,
  fileChannelMessage,
  heldMessageKey,
  mayBeFiled,
  withdrawMessage,
} from '../../intents/file-channel-message.ts';
import { threadMessageKey } from '../../outbox/delivery-keys.ts';
import { enqueueIntent } from '../../outbox/intent-definition.ts';
import {
  channelModeOf,
  DEFAULT_AUTO_HOLD_MS,
  isRequestChannelType,
} from '../../tickets/channel-modes.ts';
import { type PersonMessage, ticketFieldsOf } from '../../tickets/message-text.ts';
import type { CheckedMessageEvent } from './event-shapes.ts';
import { editedBody } from './message-changed.ts';

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
  const { channel, ts } = message;
  const holdMs = deps.settings.autoChannelHoldMs ?? DEFAULT_AUTO_HOLD_MS;
  const key = heldMessageKey(channel, ts);
  const outcome = await deps.stores.outbox.enqueue(
    key,
    fileChannelMessage.kind,
    heldPayload(deps, message),
    { runAt: Date.now() + holdMs },
  );
  if (!outcome.enqueued)
    deps.logger.debug({ delivery_key: key, state: outcome.state }, 'duplicate suppressed');
  return true;
}

// The held entry's payload: the create-ticket intent's, as a DM's filing would be.
function heldPayload(deps: Deps, message: TopLevelMessage): JsonValue {
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
  return fileChannelMessage.schema.parse(payload) as JsonValue;
}

// Which edit is newer: Slack's edit time (one width, so strings compare), else the event's.
function editVersion(event: CheckedMessageEvent): string | undefined {
  const edited = (event.message as { edited?: { ts?: unknown } } | undefined)?.edited;
  if (typeof edited?.ts === 'string') return edited.ts;
  const eventTs = (event as { event_ts?: unknown }).event_ts;
  return typeof eventTs === 'string' ? eventTs : event.ts;
}

/**
 * A person's edit of their top-level message, in a request channel or a direct message to the
 * app, whose ticket's thread is not linked yet. While its filing waits (held, or queued and
 * taken by no worker) the filing is amended and the ticket is filed with the edited words; once
 * a worker took it, the edit is queued to go on the ticket as an "edited:" message as soon as
 * it exists. The outbox decides between the two atomically, on every replica, so the edit is
 * never lost. True when the edit was taken here; false leaves it to the linked thread's handling.
 */
export async function takeUnfiledEdit(
  deps: Pick<SlackDeps, 'logger' | 'settings' | 'stores'>,
  event: CheckedMessageEvent,
  key: string,
): Promise<boolean> {
  const message = event.message;
  const { user, ts } = message ?? {};
  if (!message || !user || !ts || message.bot_id || message.subtype === 'bot_message') return false;
  // A reply's edit concerns its thread's ticket, not a filing.
  if (message.thread_ts && message.thread_ts !== ts) return false;
  const direct = event.channel_type === 'im';
  if (!direct && !isRequestChannelType(event.channel_type)) return false;
  if (!direct && (await channelModeOf(deps, event.channel)) !== 'auto') return false;
  // Filed and linked: an ordinary edit of a ticket's message.
  if (await deps.stores.links.ticketForThread(event.channel, ts)) return false;
  const body = editedBody(event);
  const version = editVersion(event);
  if (!body || !version) return true;
  // Slack delivering this edit again after it was filed with its message: nothing more to do.
  const filedMark = `held-edit:${key}`;
  if ((await deps.stores.claims.get(filedMark))?.state === 'done') return true;
  const person: PersonMessage = { ...message, user, ts, channel: event.channel };
  const filing = direct
    ? {
        key: threadMessageKey(event.channel, ts),
        kind: createTicket.kind,
        payload: createTicket.schema.parse(directMessageFiling(person)) as JsonValue,
      }
    : {
        key: heldMessageKey(event.channel, ts),
        kind: fileChannelMessage.kind,
        payload: heldPayload(deps, {
          channel: event.channel,
          channelType: event.channel_type,
          ts,
          user,
          ticket: ticketFieldsOf(person),
        }),
      };
  const amended = await deps.stores.outbox.amend(filing.key, filing.kind, filing.payload, version);
  if (amended !== 'taken') {
    const mark = await deps.stores.claims.claim(filedMark, 60_000);
    if (mark.state === 'claimed') await deps.stores.claims.complete(filedMark, mark.token, true);
    deps.logger.info(
      { channel: event.channel, thread_ts: ts, outcome: amended },
      'message edited before it was filed: filed with its edit',
    );
    return true;
  }
  if (direct) {
    // Not queued for filing: its question after a resolution is out, whose buttons read the
    // message as it is when clicked (or it is older than this way of filing: as before).
    if (!(await deps.stores.outbox.delivery(filing.key))) return true;
  } else if (!(await mayBeFiled(deps, event.channel, ts))) {
    // Never held (older than the channel's auto mode, say): an ordinary edit, for the thread.
    return false;
  }
  const payload: AddHeldEditPayload = {
    channel: event.channel,
    ts,
    userId: user,
    body,
    ...(direct ? { filingKey: filing.key } : {}),
  };
  await enqueueIntent(deps, key, addHeldEdit, payload);
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
