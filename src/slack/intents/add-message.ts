/**
 * The add-message intent: a reply in a linked Slack thread becomes a message on its ticket,
 * written as the person who replied. Keyed by the Slack event, so Slack's retries and other
 * replicas add it once; queued in the outbox, so a platform outage loses nothing. A reply in a
 * thread the app did not know (Redis came back empty) is queued without its ticket, which the
 * thread's messages tell when it runs: the thread is linked again first. When they name none in
 * a thread the app posted in, the writer is told privately, with their words: never dropped
 * without a word.
 */

import { z } from 'zod';
import { hashIdempotencyKey } from '../../servicedesk/index.ts';
import type { JsonValue } from '../../store/types.ts';
import { describeFailure } from '../builders/failure-reason-builder.ts';
import {
  buildDelayedNotice,
  buildFailureNotice,
  buildUnplacedReplyNotice,
} from '../builders/notice-builder.ts';
import { buildRefusal } from '../builders/refusal-builder.ts';
import type { IntentDeps } from '../deps.ts';
import { ChangeRefusedError, NotFiledYetError } from '../errors.ts';
import { defineIntent, type IntentRunner } from '../outbox/intent-definition.ts';
import { busyForMs } from '../outbox/transient-errors.ts';
import { tellPrivately } from '../posting/private-notice.ts';
import { ThreadTicketFinder } from '../threads/thread-tickets.ts';
import {
  announceReopen,
  isClosedRefusal,
  lastKnownStatus,
  promptReplyAsTicket,
  refuseIfKnownClosed,
  refuseReopenByOthers,
} from '../tickets/closed-ticket-rules.ts';

/** The payload queued for an add-message intent. */
export const addMessagePayloadSchema = z.object({
  ticketId: z.string(),
  userId: z.string(),
  /** The reply as plain text, file links included. */
  body: z.string(),
  channel: z.string(),
  threadTs: z.string(),
  ts: z.string(),
});
/** The payload of an add-message intent. */
export type AddMessagePayload = z.infer<typeof addMessagePayloadSchema>;

/**
 * The payload queued for a reply in a thread the app did not know: the ticket is the one the
 * app's own posts in the thread name, those of the bot user `appUserId`.
 */
export const unlinkedReplyPayloadSchema = addMessagePayloadSchema.omit({ ticketId: true }).extend({
  appUserId: z.string(),
  /**
   * The delivery key of the filing that makes the thread a ticket, when one is under way (a
   * second message in a new AI-pane conversation): the reply waits for it, never told "no
   * ticket" while its ticket is being filed.
   */
  filingKey: z.string().optional(),
});
/** The payload of a reply whose thread's ticket is found when it runs. */
export type UnlinkedReplyPayload = z.infer<typeof unlinkedReplyPayloadSchema>;

/** A queued reply: to a known ticket, or in a thread whose ticket is found when it runs. */
export type QueuedReply = AddMessagePayload | UnlinkedReplyPayload;

/**
 * Adds a thread reply to its ticket, keyed by `deliveryKey` so a retry adds nothing new. The
 * thread is told when the reply reopened a resolved ticket, unless `announceReopen` is false
 * (a caller that says it in its own words).
 */
export async function addReply(
  deps: IntentDeps,
  deliveryKey: string,
  payload: AddMessagePayload,
  options: { announceReopen?: boolean } = {},
): Promise<JsonValue> {
  const before = await lastKnownStatus(deps, payload.ticketId);
  refuseIfKnownClosed(payload.ticketId, before);
  const email = await deps.people.email(payload.userId);
  const checked = await refuseReopenByOthers(deps, payload, before, email);
  // Not echoed into the thread it was written in; the ticket's other threads show it.
  const writtenIn = { channel: payload.channel, threadTs: payload.threadTs };
  await deps.mirror.rememberOwnMessage(payload.ticketId, email, payload.body, writtenIn);
  const message = await deps.serviceDesk.addMessage(
    payload.ticketId,
    { body: payload.body, author_email: email },
    { idempotencyKey: hashIdempotencyKey(deliveryKey), priority: 'interactive' },
  );
  deps.logger.info(
    {
      ticket_id: payload.ticketId,
      channel: payload.channel,
      thread_ts: payload.threadTs,
      message_id: message.id,
    },
    'thread reply added to ticket',
  );
  await deps.mirror.rememberOwnMessageId(payload.ticketId, message.id, writtenIn);
  // The ticket's other threads show it at once, by the mirror's own claimed posts.
  await deps.mirror.messageWritten?.(payload.ticketId, message);
  await deps.mirror.slackWrote(payload.ticketId);
  if (options.announceReopen !== false)
    await announceReopen(deps, payload, checked, email, message.id);
  return { ticketId: payload.ticketId, messageId: message.id };
}

/** Adds a reply in a linked thread (or one re-linked from its messages) to its ticket. */
export const addMessage = defineIntent<QueuedReply>({
  kind: 'add_message',
  schema: z.union([addMessagePayloadSchema, unlinkedReplyPayloadSchema]),
  runner: addMessageRunner,
});

function addMessageRunner(deps: IntentDeps): IntentRunner<QueuedReply> {
  const threads = new ThreadTicketFinder({ client: deps.client });

  // The reply with its ticket as the links know it now: no Slack call.
  async function linked(
    queued: AddMessagePayload | UnlinkedReplyPayload,
  ): Promise<AddMessagePayload | undefined> {
    if ('ticketId' in queued) return queued;
    const { appUserId: _appUserId, filingKey: _filingKey, ...reply } = queued;
    const ticketId = await deps.stores.links.ticketForThread(reply.channel, reply.threadTs);
    return ticketId ? { ...reply, ticketId } : undefined;
  }

  // The ticket the thread's filing made, or NotFiledYetError while it is under way; undefined
  // when it made none (failed: its writer was told) or is not known.
  async function filedBy(reply: UnlinkedReplyPayload): Promise<string | undefined> {
    if (!reply.filingKey) return undefined;
    const filing = await deps.stores.outbox.delivery(reply.filingKey);
    if (filing?.state === 'pending') throw new NotFiledYetError(reply.channel, reply.threadTs);
    const ticketId = (filing?.result as { ticketId?: unknown } | null | undefined)?.ticketId;
    return filing?.state === 'done' && typeof ticketId === 'string' ? ticketId : undefined;
  }

  // A reply in a thread the app did not know: its ticket from the thread's messages, and the
  // thread linked again, unless another reply in it did that since this one was queued. With
  // no ticket, whether the app posted in the thread (its writer is then owed an answer).
  async function relinked(
    reply: UnlinkedReplyPayload,
  ): Promise<AddMessagePayload | { appPosted: boolean }> {
    const known = await linked(reply);
    if (known) return known;
    const filed = await filedBy(reply);
    if (filed) {
      const { appUserId: _appUserId, filingKey: _filingKey, ...rest } = reply;
      return { ...rest, ticketId: filed };
    }
    const thread = { channel: reply.channel, threadTs: reply.threadTs };
    const { ticketId, appPosted } = await threads.lookup(thread, reply.appUserId);
    if (!ticketId) return { appPosted };
    const ticket = await deps.mirror.relinkThread(ticketId, thread);
    if (ticket) deps.statuses.remember(ticket);
    deps.logger.info(
      { ticket_id: ticketId, channel: thread.channel, thread_ts: thread.threadTs },
      'thread linked again from its messages',
    );
    const { appUserId: _appUserId, filingKey: _filingKey, ...rest } = reply;
    return { ...rest, ticketId };
  }

  return {
    async run(queued, entry) {
      const payload = 'ticketId' in queued ? queued : await relinked(queued);
      if ('ticketId' in payload) return addReply(deps, entry.deliveryKey, payload);
      // No post of the app names a ticket. In a thread the app posted in, its writer may think
      // it reached someone: told privately, with their words. Elsewhere it was never the app's.
      if (payload.appPosted)
        await tellPrivately(deps.client, queued, buildUnplacedReplyNotice(queued.body));
      return { ticketId: null };
    },

    async failed(queued, error) {
      const payload = await linked(queued);
      if (!payload) {
        // Failed before its thread's ticket was known: told without one, with their words.
        await tellPrivately(
          deps.client,
          queued,
          buildFailureNotice(describeFailure(error, 'reply'), queued.body),
        );
        return;
      }
      // Closed is final: offer a new ticket with the reply instead of a bare failure.
      if (await isClosedRefusal(deps, payload.ticketId, error)) {
        await promptReplyAsTicket(deps, payload, 'closed');
        return;
      }
      // Someone else's resolved ticket: their problem may well be their own ticket.
      if (error instanceof ChangeRefusedError && error.reason === 'reopen_not_allowed') {
        await promptReplyAsTicket(deps, payload, 'others');
        return;
      }
      // Refused by the app's own rules: why, privately, with their words.
      const reason =
        error instanceof ChangeRefusedError
          ? (buildRefusal(error.reason, payload.ticketId).text ?? '')
          : describeFailure(error, `reply to ${payload.ticketId}`);
      await tellPrivately(deps.client, payload, buildFailureNotice(reason, payload.body));
    },

    async delayed(queued, error) {
      // Waiting for its thread's ticket to be filed: the filing tells of any delay itself.
      if (error instanceof NotFiledYetError) return;
      await tellPrivately(deps.client, queued, buildDelayedNotice('reply', busyForMs(error)));
    },

    logFields(payload, result) {
      // A re-linked reply's ticket is known once it ran.
      const done = result as { ticketId?: string | null } | null | undefined;
      return {
        ticket_id: 'ticketId' in payload ? payload.ticketId : (done?.ticketId ?? undefined),
        channel: payload.channel,
        thread_ts: payload.threadTs,
      };
    },
  };
}
