/**
 * What the person who filed sees of the outcome besides the card: the modal that showed
 * "filing…" and the private "Filing…" of a prompt's button, both replaced by the outcome, and
 * the failure or delay notices when there is no card to show.
 */
import type { Ticket } from '../../../servicedesk/index.ts';
import { buildFiledFromPrompt } from '../../builders/closed-ticket-prompt-builder.ts';
import { describeFailure } from '../../builders/failure-reason-builder.ts';
import { safeMrkdwn } from '../../builders/mrkdwn.ts';
import {
  buildCardDelayedNotice,
  buildDelayedNotice,
  buildFailureNotice,
  buildFiledElsewhereText,
} from '../../builders/notice-builder.ts';
import { buildFiledBesideThreadText } from '../../builders/thread-taken-notice-builder.ts';
import type { SlackMessage } from '../../builders/ticket-card-builder.ts';
import type { IntentDeps } from '../../deps.ts';
import { TicketNotPostedError, TicketPostDelayedError } from '../../errors.ts';
import type { FailureContext } from '../../outbox/outbox-worker.ts';
import { busyForMs, isSlackCallError, isSlackRateLimited } from '../../outbox/transient-errors.ts';
import { postToResponseUrl, tellPrivately } from '../../posting/private-notice.ts';
import { sendDm } from '../../posting/slack-posting.ts';
import type { CreateTicketPayload } from '../payloads.ts';
import { updateStatusView } from '../status-view.ts';
import { keepNotice } from './delay-notice.ts';
import type { Posted } from './post-card.ts';

/**
 * Replaces the private "Filing…" with what came of it; false when its response_url no longer
 * takes posts (used up, or older than Slack's 30 minutes), in which case it stays as it was.
 */
export async function replaceFiling(
  deps: Pick<IntentDeps, 'logger'>,
  payload: CreateTicketPayload,
  message: SlackMessage,
): Promise<boolean> {
  if (!payload.responseUrl) return false;
  try {
    await postToResponseUrl(payload.responseUrl, { replace_original: true, ...message });
    return true;
  } catch (error) {
    deps.logger.info({ err: error }, 'the private “Filing…” could not be replaced');
    return false;
  }
}

/** Tells the modal and the private "Filing…" that the ticket is filed, and where its card is. */
export async function tellFiled(
  deps: IntentDeps,
  payload: CreateTicketPayload,
  ticket: Ticket,
  posted: Posted,
): Promise<void> {
  await updateStatusView(
    deps,
    payload.viewId,
    'Ticket filed',
    posted.besideThreadOf
      ? buildFiledBesideThreadText(ticket.id, posted.besideThreadOf)
      : posted.insteadOf
        ? buildFiledElsewhereText(ticket.id, posted.insteadOf)
        : `:white_check_mark: *${safeMrkdwn(ticket.id, 40)}* is filed. You can close this window.`,
  );
  await replaceFiling(
    deps,
    payload,
    buildFiledFromPrompt(
      ticket.id,
      payload.reply.kind === 'thread' && !posted.insteadOf ? 'thread' : 'dm',
    ),
  );
}

// The person's own words, given back with a failure so nothing they wrote is lost.
function originalText(payload: CreateTicketPayload): string | undefined {
  if (!payload.ticket) return undefined;
  return [payload.ticket.title, payload.ticket.description].filter(Boolean).join('\n\n');
}

/**
 * Tells the person the filing failed for good, with their words, in the modal, the private
 * "Filing…", or privately where they acted. A ticket filed but not shown is never "not filed".
 */
export async function tellFailed(
  deps: IntentDeps,
  payload: CreateTicketPayload,
  error: unknown,
  context: FailureContext,
): Promise<void> {
  // A modal whose submission is still waiting shows the failure itself, on its fields.
  if (context.awaited && payload.viewId) return;
  const reason = describeFailure(error, 'ticket');
  // A filed ticket is never reported as "not filed": the person would file it twice.
  const filed = error instanceof TicketNotPostedError || error instanceof TicketPostDelayedError;
  await updateStatusView(deps, payload.viewId, filed ? 'Ticket filed' : 'Ticket not filed', reason);
  const notice = buildFailureNotice(reason, filed ? undefined : originalText(payload));
  // The "Filing…" they are looking at becomes the failure, their words in it.
  if (await replaceFiling(deps, payload, notice)) return;
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
}

/**
 * Tells, once, that the filing (or its card) is delayed: in the private "Filing…", privately,
 * in the thread (a notice the confirmation later replaces), or in the modal.
 */
export async function tellDelayed(
  deps: IntentDeps,
  payload: CreateTicketPayload,
  error: unknown,
  context: FailureContext,
): Promise<void> {
  if (context.awaited && payload.viewId) return;
  // Slack not answering before anything was filed (reading a reacted message, telling whose
  // thread it is): the service desk is fine and nothing is lost; the retry tells the person.
  if (!(error instanceof TicketPostDelayedError) && isSlackCallError(error)) return;
  const notice =
    error instanceof TicketPostDelayedError
      ? buildCardDelayedNotice(error.ticketId, isSlackRateLimited(error.cause))
      : buildDelayedNotice('ticket', busyForMs(error));
  // The private "Filing…" the person is looking at says it; nothing else is posted.
  if (await replaceFiling(deps, payload, notice)) return;
  if (payload.reply.kind === 'thread' && payload.tellDelayPrivately) {
    const { channel, threadTs } = payload.reply;
    await tellPrivately(deps.client, { userId: payload.actorUserId, channel, threadTs }, notice);
    return;
  }
  if (payload.reply.kind === 'thread') {
    // Slack limiting the app's posts: no post before its Retry-After, and the confirmation,
    // posted once it has passed, is the one message naming the ticket.
    if (error instanceof TicketPostDelayedError && isSlackRateLimited(error.cause)) return;
    const posted = await deps.client.chat
      .postMessage({
        channel: payload.reply.channel,
        thread_ts: payload.reply.threadTs,
        ...notice,
      })
      .catch((limited: unknown) => {
        // Held for another post's Retry-After: the same holds, the confirmation says it.
        if (isSlackRateLimited(limited)) return undefined;
        throw limited;
      });
    if (error instanceof TicketPostDelayedError && posted?.ts)
      await keepNotice(deps, error.ticketId, {
        channel: posted.channel ?? payload.reply.channel,
        ts: posted.ts,
      });
    return;
  }
  const title = error instanceof TicketPostDelayedError ? 'Ticket filed' : 'Filing your ticket';
  await updateStatusView(deps, payload.viewId, title, notice.text);
}
