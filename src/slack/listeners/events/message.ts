/**
 * Messages the app hears: a direct message to the app files a ticket (answered in its thread),
 * and so does a new top-level message in a request channel (one set to auto), held a few
 * seconds in case its writer deletes it;
 * a reply in a linked thread becomes a message on that ticket, and an edit of one an "edited:"
 * message. The first message of a conversation in Slack's AI pane files a ticket too
 * (`pane-message.ts`). All are keyed by the event, so Slack's retries and other replicas never add
 * anything twice. The app's own posts and other bots' messages are never taken as a person's.
 * A reply in a thread the links do not know, where the app's post may name a ticket (Redis came
 * back empty), is queued for its ticket to be found from the thread when it runs. A reply or
 * edit in a triage thread goes first to `triage-thread-message.ts`: an internal note, never public.
 */
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { SlackDeps } from '../../deps.ts';
import {
  type AddMessagePayload,
  addMessage,
  type QueuedReply,
  type UnlinkedReplyPayload,
} from '../../intents/add-message.ts';
import { createTicket, directMessageFiling } from '../../intents/create-ticket.ts';
import { askIfResolvedLately } from '../../intents/resolved-follow-up.ts';
import { eventKey, threadMessageKey } from '../../outbox/delivery-keys.ts';
import { enqueueIntent } from '../../outbox/intent-definition.ts';
import { messageBody, type PersonMessage, ticketFieldsOf } from '../../tickets/message-text.ts';
import type { CheckedMessageEvent } from './event-shapes.ts';
import { messageChanged } from './message-changed.ts';
import { takePaneMessage } from './pane-message.ts';
import {
  holdRequestChannelMessage,
  takeUnfiledEdit,
  withdrawDeletedMessage,
} from './request-channel-message.ts';
import { takeTriageEdit, takeTriageReply } from './triage-thread-message.ts';

type Args = SlackEventMiddlewareArgs<'message'> & AllMiddlewareArgs;

// Subtypes that are a person writing; edits, joins, bot posts and the like are not.
const PERSON_SUBTYPES = new Set([undefined, 'file_share', 'thread_broadcast']);

/**
 * Whether a thread the links do not know may be a ticket's: one whose parent is the app's post
 * (a card in a channel), or any thread of the app's direct messages (the notice is a reply
 * there). Other threads are never looked up, so a busy channel costs no Slack calls.
 */
export function mayBeTicketThread(
  message: { channel_type?: string; parent_user_id?: unknown },
  appUserId: string | undefined,
): appUserId is string {
  if (!appUserId) return false;
  return message.channel_type === 'im' || message.parent_user_id === appUserId;
}

/** Builds the message event handler. */
export function messageEvent(
  deps: Pick<
    SlackDeps,
    'client' | 'healWindow' | 'logger' | 'settings' | 'stores' | 'tasks' | 'triageThreads'
  >,
) {
  return async (event: CheckedMessageEvent, { body, context }: Args): Promise<void> => {
    const subtype = event.subtype;
    if (subtype === 'message_changed') {
      const key = eventKey(body as { api_app_id?: string; team_id?: string; event_id?: string });
      if (await takeTriageEdit(deps, event, key, context.botUserId)) return;
      if (await takeUnfiledEdit(deps, event, key)) return;
      const edited = event.message as { parent_user_id?: unknown } | undefined;
      const appUserId = context.botUserId;
      const appThread = mayBeTicketThread(
        { channel_type: event.channel_type, parent_user_id: edited?.parent_user_id },
        appUserId,
      )
        ? { appUserId }
        : undefined;
      const enqueue = async (k: string, payload: QueuedReply) => {
        await enqueueIntent(deps, k, addMessage, payload);
      };
      await messageChanged(deps, event, key, enqueue, appThread);
      return;
    }
    if (subtype === 'message_deleted') {
      await withdrawDeletedMessage(deps, event);
      return;
    }
    if (!PERSON_SUBTYPES.has(subtype)) return;
    if (event.bot_id || !event.user || !event.ts) return;
    const message: PersonMessage = { ...event, user: event.user, ts: event.ts };
    const body_ = messageBody(message);
    if (!body_) return;
    const key = eventKey(body as { api_app_id?: string; team_id?: string; event_id?: string });

    if (message.thread_ts && message.thread_ts !== message.ts) {
      const reply = {
        userId: message.user,
        body: body_,
        channel: message.channel,
        threadTs: message.thread_ts,
        ts: message.ts,
      };
      const triage = { ...reply, parentUserId: event.parent_user_id as string | undefined };
      if (await takeTriageReply(deps, triage, key, context.botUserId)) return;
      const ticketId = await deps.stores.links.ticketForThread(message.channel, message.thread_ts);
      if (ticketId) {
        const payload: AddMessagePayload = { ticketId, ...reply };
        await enqueueIntent(deps, key, addMessage, payload);
        return;
      }
      // A conversation in Slack's AI pane: its first message files a ticket.
      const inThread = { ...message, thread_ts: message.thread_ts };
      const pane = { message: inThread, body: body_, key, appUserId: context.botUserId };
      if (await takePaneMessage(deps, pane)) return;
      // Looking the thread up is Slack calls: queued, so the ack does not wait on them.
      const appUserId = context.botUserId;
      if (!appUserId) return;
      if (!mayBeTicketThread(event, appUserId) && !(await deps.healWindow.isOpen())) return;
      const payload: UnlinkedReplyPayload = { appUserId, ...reply };
      await enqueueIntent(deps, key, addMessage, payload);
      return;
    }

    if (message.channel_type === 'im') {
      const payload = directMessageFiling(message);
      // Soon after a resolution, "still broken" is asked about before anything is filed.
      const dm = { userId: message.user, channel: message.channel, ts: message.ts };
      if (await askIfResolvedLately(deps, { ...dm, body: body_, filing: payload }, key)) return;
      // Keyed by the message, as its question's buttons file it: an edit finds its filing.
      const filingKey = threadMessageKey(message.channel, message.ts);
      await enqueueIntent(deps, filingKey, createTicket, payload);
      return;
    }
    const ticket = ticketFieldsOf(message);
    await holdRequestChannelMessage(deps, {
      channel: message.channel,
      channelType: message.channel_type,
      ts: message.ts,
      user: message.user,
      ticket,
    });
  };
}
