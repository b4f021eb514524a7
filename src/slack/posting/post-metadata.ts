/**
 * The metadata every post of the app carries, so the app can recognise its own posts (never
 * echoed back as a person's reply) and find them again in Slack: a card or confirmation names
 * its ticket; a mirrored message or change names the platform item too.
 */
import type { ChatPostMessageArguments } from '@slack/web-api';

/** The metadata event type of the app's posts about a ticket. */
export const TICKET_EVENT_TYPE = 'servicedesk_ticket';

/** A message as Slack returns it with `include_all_metadata`. */
export interface ThreadMessage {
  ts?: string;
  thread_ts?: string;
  user?: string;
  bot_id?: string;
  text?: string;
  blocks?: unknown[];
  metadata?: { event_type?: string; event_payload?: Record<string, unknown> };
}

/** What one of the app's posts says it is about. */
export interface PostMetadata {
  ticketId: string;
  /** The platform item (message or activity) a mirrored post carries; absent on cards. */
  itemId: string | undefined;
  /** Which part of a message posted in parts (0-based); absent on a post that is whole. */
  part: number | undefined;
}

/** One part of a message posted in parts: its place (0-based) and how many there are. */
export interface PostPart {
  index: number;
  count: number;
}

/**
 * Metadata naming the ticket, and for a mirrored post the platform item, a post is about; a
 * part of a long message also names its place (1-based, as it reads) and the count, so that
 * each part is found again on its own.
 */
export function ticketMetadata(
  ticketId: string,
  itemId?: string,
  part?: PostPart,
): ChatPostMessageArguments['metadata'] {
  return {
    event_type: TICKET_EVENT_TYPE,
    event_payload: {
      ticket_id: ticketId,
      ...(itemId ? { message_id: itemId } : {}),
      ...(part ? { part: part.index + 1, parts: part.count } : {}),
    },
  };
}

/** The ticket (and item) a message's metadata names, when it is a post about a ticket. */
export function postMetadata(message: ThreadMessage): PostMetadata | undefined {
  const metadata = message.metadata;
  if (metadata?.event_type !== TICKET_EVENT_TYPE) return undefined;
  const ticketId = metadata.event_payload?.ticket_id;
  const itemId = metadata.event_payload?.message_id;
  const part = metadata.event_payload?.part;
  if (typeof ticketId !== 'string') return undefined;
  return {
    ticketId,
    itemId: typeof itemId === 'string' ? itemId : undefined,
    part: typeof part === 'number' && Number.isInteger(part) && part >= 1 ? part - 1 : undefined,
  };
}

/** The metadata event type of a triage card (its payload: `{ticket_id, triage: true}`). */
export const TRIAGE_CARD_EVENT_TYPE = 'triage_card';

/**
 * The metadata of a ticket's triage card, by which it is found again (after a crash between
 * posting and recording it, or once Redis came back empty) and told from the requester's cards.
 */
export function triageCardMetadata(
  ticketId: string,
  updatedAt?: string,
): { event_type: string; event_payload: Record<string, string | boolean> } {
  return {
    event_type: TRIAGE_CARD_EVENT_TYPE,
    event_payload: {
      ticket_id: ticketId,
      triage: true,
      ...(updatedAt ? { ticket_updated_at: updatedAt } : {}),
    },
  };
}

/** The ticket a triage card names, when the message's metadata is a triage card's. */
export function triageCardTicketOf(message: ThreadMessage): string | undefined {
  if (message.metadata?.event_type !== TRIAGE_CARD_EVENT_TYPE) return undefined;
  const ticketId = message.metadata.event_payload?.ticket_id;
  return typeof ticketId === 'string' ? ticketId : undefined;
}

/** The metadata event type of a catch-all card turned into a pointer to its desk's card. */
export const TRIAGE_MOVED_EVENT_TYPE = 'triage_card_moved';

/**
 * The metadata of a catch-all card that points to the ticket's card in its desk's channel: no
 * longer a triage card (no action or reaction takes it for one), but still naming its ticket.
 */
export function triageMovedMetadata(
  ticketId: string,
  to: { channel: string; threadTs: string },
): { event_type: string; event_payload: Record<string, string> } {
  return {
    event_type: TRIAGE_MOVED_EVENT_TYPE,
    event_payload: { ticket_id: ticketId, channel: to.channel, ts: to.threadTs },
  };
}

/** The metadata event type of a triage channel's pinned record (its payload: `{desk, set_at}`). */
export const TRIAGE_CHANNEL_EVENT_TYPE = 'triage_channel';

/** A triage channel's record as its metadata says: the desk, and when it was set (ms). */
export interface TriageChannelRecordData {
  desk: string;
  setAt: number;
}

/**
 * The metadata of the record the app pins in a channel set with `/ticket triage`: the desk
 * (`*` for the catch-all) and when, so the newest record of a desk wins when read back.
 */
export function triageChannelMetadata(
  desk: string,
  setAt: number,
): { event_type: string; event_payload: Record<string, string | number> } {
  return { event_type: TRIAGE_CHANNEL_EVENT_TYPE, event_payload: { desk, set_at: setAt } };
}

/** The desk and time a triage channel's record names, when the message's metadata is one. */
export function triageChannelRecordOf(message: ThreadMessage): TriageChannelRecordData | undefined {
  if (message.metadata?.event_type !== TRIAGE_CHANNEL_EVENT_TYPE) return undefined;
  const desk = message.metadata.event_payload?.desk;
  const setAt = message.metadata.event_payload?.set_at;
  if (typeof desk !== 'string' || desk === '' || typeof setAt !== 'number') return undefined;
  return { desk, setAt };
}

/** The metadata event type of a triage channel's morning summary (its payload: `{date}`). */
export const TRIAGE_DIGEST_EVENT_TYPE = 'triage_digest';

/**
 * The metadata of a morning summary, naming its local date (`YYYY-MM-DD`): by it the summary
 * is found again in the channel after a crash between posting and recording it.
 */
export function triageDigestMetadata(date: string): {
  event_type: string;
  event_payload: Record<string, string>;
} {
  return { event_type: TRIAGE_DIGEST_EVENT_TYPE, event_payload: { date } };
}

/** The local date a morning summary names, when the message's metadata is one. */
export function triageDigestDateOf(message: ThreadMessage): string | undefined {
  if (message.metadata?.event_type !== TRIAGE_DIGEST_EVENT_TYPE) return undefined;
  const date = message.metadata.event_payload?.date;
  return typeof date === 'string' ? date : undefined;
}
