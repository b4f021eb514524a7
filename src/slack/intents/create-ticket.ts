/**
 * The create-ticket intent: files a ticket on the platform for a Slack person, posts the card or
 * the thread confirmation, and links the thread. It runs from the outbox, so the platform may
 * be down for a while and the process may restart: the idempotency key, derived from the Slack
 * delivery identity, makes every retry return the same ticket.
 */
import { z } from 'zod';
import { hashIdempotencyKey, type Ticket } from '../../servicedesk/index.ts';
import type { JsonValue, ReservedEntry } from '../../store/types.ts';
import { buildStatusModal } from '../builders/create-modal-builder.ts';
import { safeMrkdwn } from '../builders/mrkdwn.ts';
import {
  buildDelayedNotice,
  buildFailureNotice,
  buildLinkedThreadNotice,
} from '../builders/notice-builder.ts';
import { buildTicketCard } from '../builders/ticket-card-builder.ts';
import type { SlackDeps } from '../deps.ts';
import { InvalidIntentError, MessageNotFoundError, PersonWithoutEmailError } from '../errors.ts';
import { slackToPlain, titleFromText } from '../message-text.ts';
import { afterSlackWrite } from '../mirror-hints.ts';
import type { FailureContext, IntentHandler } from '../outbox/outbox-worker.ts';
import { busyForMs } from '../outbox/transient-errors.ts';
import { postOrDm, sendDm, ticketMetadata } from '../slack-posting.ts';
import { describeFailure } from './failure-reasons.ts';

/** The outbox kind of this intent. */
export const CREATE_TICKET = 'create_ticket';

const messageRef = z.object({
  channel: z.string(),
  ts: z.string(),
  threadTs: z.string().optional(),
});

/** The payload queued for a create-ticket intent. */
export const createTicketPayloadSchema = z.object({
  /** Who acted (submitted, reacted, wrote the DM): told about failures. */
  actorUserId: z.string(),
  /** Who the ticket is for, in order of preference; the first with an email is the requester. */
  requesterUserIds: z.array(z.string()).min(1),
  /** The ticket's fields; absent for a reaction, whose message is read when the intent runs. */
  ticket: z
    .object({
      title: z.string(),
      description: z.string().optional(),
      desk_id: z.string().optional(),
      priority: z.enum(['low', 'medium', 'high', 'urgent']).optional(),
      custom_fields: z.record(z.string(), z.string()).optional(),
    })
    .optional(),
  /** The Slack message the ticket is made from, if any. */
  fromMessage: messageRef.optional(),
  /** Where the outcome goes: a card in a channel, or a confirmation in a thread. */
  reply: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('card'), channel: z.string() }),
    // threadTs is absent when it is only known once the message is read (a reaction on a reply).
    z.object({ kind: z.literal('thread'), channel: z.string(), threadTs: z.string().optional() }),
  ]),
  /** The modal showing "filing…", updated with the outcome when it comes late. */
  viewId: z.string().optional(),
});
/** The payload of a create-ticket intent. */
export type CreateTicketPayload = z.infer<typeof createTicketPayloadSchema>;

/** What the intent remembers against the delivery key. */
export interface CreateTicketResult {
  ticketId: string;
  channel: string;
  ts: string;
  /** The thread linked to the ticket (the card's ts, or the thread the notice went into). */
  threadTs?: string;
}

function parsePayload(entry: ReservedEntry): CreateTicketPayload {
  const parsed = createTicketPayloadSchema.safeParse(entry.payload);
  if (!parsed.success)
    throw new InvalidIntentError(entry.kind, parsed.error.issues[0]?.message ?? 'invalid');
  return parsed.data;
}

/** Builds the create-ticket intent handler. */
export function createTicketIntent(deps: SlackDeps): IntentHandler {
  async function requesterEmail(ids: readonly string[]): Promise<string> {
    for (const id of ids) {
      const person = await deps.people.person(id);
      if (person.email && !person.isBot) return person.email;
    }
    throw new PersonWithoutEmailError(ids[0] as string);
  }

  async function ticketFromMessage(ref: z.infer<typeof messageRef>) {
    // Slack answers with the thread's parent first, whatever ts names: for a reply, the window
    // [ts, ts] plus the parent takes two messages.
    const replies = await deps.client.conversations.replies({
      channel: ref.channel,
      ts: ref.ts,
      oldest: ref.ts,
      latest: ref.ts,
      inclusive: true,
      limit: 2,
    });
    const message = replies.messages?.find((m) => m.ts === ref.ts);
    if (!message) throw new MessageNotFoundError(ref.channel, ref.ts);
    const text = slackToPlain(message.text ?? '');
    const permalink = await deps.client.chat
      .getPermalink({ channel: ref.channel, message_ts: ref.ts })
      .then((r) => r.permalink)
      .catch(() => undefined);
    return {
      title: titleFromText(text) || 'Request from Slack',
      description: permalink ? `${text}\n\n— From Slack: ${permalink}` : text,
      authorId: message.user,
      threadTs: message.thread_ts ?? message.ts ?? ref.ts,
    };
  }

  async function post(
    payload: CreateTicketPayload,
    ticket: Ticket,
    messageThreadTs: string | undefined,
  ) {
    const { dashboardUrl } = deps.settings;
    const metadata = ticketMetadata(ticket.id);
    if (payload.reply.kind === 'thread') {
      const threadTs = payload.reply.threadTs ?? messageThreadTs ?? payload.fromMessage?.ts;
      if (!threadTs) throw new InvalidIntentError(CREATE_TICKET, 'no thread to reply in');
      const message = buildLinkedThreadNotice(ticket, {
        dashboardUrl,
        filedBy: payload.actorUserId,
      });
      const posted = await deps.client.chat.postMessage({
        channel: payload.reply.channel,
        thread_ts: threadTs,
        ...message,
        metadata,
      });
      await deps.stores.links.link(ticket.id, { channel: payload.reply.channel, threadTs });
      return { channel: payload.reply.channel, ts: posted.ts as string, threadTs };
    }
    const card = buildTicketCard(ticket, {
      dashboardUrl,
      lead: `:ticket: <@${payload.actorUserId}> filed *${safeMrkdwn(ticket.id, 40)}*. Replies in this thread go to the ticket.`,
    });
    const posted = await postOrDm(
      deps.client,
      { channel: payload.reply.channel, userId: payload.actorUserId },
      card,
      metadata,
    );
    await deps.stores.links.link(ticket.id, { channel: posted.channel, threadTs: posted.ts });
    return { ...posted, threadTs: posted.ts };
  }

  async function updateView(
    viewId: string | undefined,
    title: string,
    text: string,
  ): Promise<void> {
    if (!viewId) return;
    // The person may have closed the modal long ago; that is fine, the outcome is posted too.
    await deps.client.views
      .update({ view_id: viewId, view: buildStatusModal(title, text) })
      .catch(() => undefined);
  }

  function originalText(payload: CreateTicketPayload): string | undefined {
    if (!payload.ticket) return undefined;
    return [payload.ticket.title, payload.ticket.description].filter(Boolean).join('\n\n');
  }

  return {
    async run(entry) {
      const payload = parsePayload(entry);
      let fields = payload.ticket;
      let requesterIds = payload.requesterUserIds;
      let messageThreadTs: string | undefined;
      if (!fields) {
        if (!payload.fromMessage)
          throw new InvalidIntentError(entry.kind, 'neither ticket nor fromMessage');
        const { authorId, threadTs, ...fromMessage } = await ticketFromMessage(payload.fromMessage);
        fields = fromMessage;
        messageThreadTs = threadTs;
        if (authorId) requesterIds = [authorId, ...requesterIds.filter((id) => id !== authorId)];
      }
      const ticket = await deps.serviceDesk.createTicket(
        { ...fields, requester_email: await requesterEmail(requesterIds), channel: 'slack' },
        { idempotencyKey: hashIdempotencyKey(entry.deliveryKey), priority: 'interactive' },
      );
      const posted = await post(payload, ticket, messageThreadTs);
      // The AI agent answers a new ticket within seconds: the mirror looks soon.
      await afterSlackWrite(deps, ticket.id);
      await updateView(
        payload.viewId,
        'Ticket filed',
        `:white_check_mark: *${safeMrkdwn(ticket.id, 40)}* is filed. You can close this window.`,
      );
      deps.logger.info(
        { ticket_id: ticket.id, channel: posted.channel, thread_ts: posted.threadTs },
        'ticket filed from Slack',
      );
      const result: CreateTicketResult = { ticketId: ticket.id, ...posted };
      return result as unknown as JsonValue;
    },

    async failed(entry, error, context: FailureContext) {
      const payload = parsePayload(entry);
      // A modal whose submission is still waiting shows the failure itself, on its fields.
      if (context.awaited && payload.viewId) return;
      const reason = describeFailure(error, 'ticket');
      await updateView(payload.viewId, 'Ticket not filed', reason);
      const notice = buildFailureNotice(reason, originalText(payload));
      if (payload.reply.kind === 'thread') {
        await deps.client.chat
          .postEphemeral({
            channel: payload.reply.channel,
            user: payload.actorUserId,
            thread_ts: payload.reply.threadTs,
            ...notice,
          })
          .catch(() => sendDm(deps.client, payload.actorUserId, notice));
        return;
      }
      await sendDm(deps.client, payload.actorUserId, notice);
    },

    logFields(entry, result) {
      const payload = parsePayload(entry);
      // The ticket and its thread are known once filed; before that, where the reply goes.
      const done = result as Partial<CreateTicketResult> | null | undefined;
      return {
        ticket_id: done?.ticketId,
        channel: done?.channel ?? payload.reply.channel,
        thread_ts:
          done?.threadTs ?? (payload.reply.kind === 'thread' ? payload.reply.threadTs : done?.ts),
      };
    },

    async delayed(entry, error, context) {
      const payload = parsePayload(entry);
      if (context.awaited && payload.viewId) return;
      const notice = buildDelayedNotice('ticket', busyForMs(error));
      if (payload.reply.kind === 'thread') {
        await deps.client.chat.postMessage({
          channel: payload.reply.channel,
          thread_ts: payload.reply.threadTs,
          ...notice,
        });
        return;
      }
      await updateView(payload.viewId, 'Filing your ticket', notice.text);
    },
  };
}
