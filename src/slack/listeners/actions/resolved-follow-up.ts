/**
 * The buttons of the question after a direct message soon after a resolution: **Reopen** adds
 * the message to the resolved ticket (which reopens it, as a reply of its requester does) and
 * links the message's thread to it; **File as a new ticket** files it as any direct message.
 * Both are keyed by the message, so a second click, or the other button, does nothing more.
 */
import {
  buildFilingAsNew,
  buildFollowUpDone,
  buildFollowUpSlackBusy,
  buildReopeningWithWords,
  parseFollowUp,
} from '../../builders/closed-ticket-prompt-builder.ts';
import { buildRefusal } from '../../builders/refusal-builder.ts';
import { type AddMessagePayload, addMessage } from '../../intents/add-message.ts';
import { createTicket, directMessageFiling } from '../../intents/create-ticket.ts';
import { threadMessageKey } from '../../outbox/delivery-keys.ts';
import { enqueueIntent } from '../../outbox/intent-definition.ts';
import { isSlackCallError, isTransient } from '../../outbox/transient-errors.ts';
import { readMessageAt } from '../../posting/thread-reader.ts';
import { messageBody, type PersonMessage } from '../../tickets/message-text.ts';
import { type ButtonArgs, type ButtonDeps, clickOf, tellClicker } from './button-click.ts';

/** Builds the handler of one of the question's buttons. */
export function resolvedFollowUp(deps: ButtonDeps, choice: 'reopen' | 'new') {
  return async ({ ack, body, respond }: ButtonArgs): Promise<void> => {
    await ack();
    const followUp = parseFollowUp(clickOf(body).value);
    if (!followUp) return;
    const { ticketId, channel, ts } = followUp;
    let found: Awaited<ReturnType<typeof readMessageAt>>['message'];
    try {
      ({ message: found } = await readMessageAt(deps.client, followUp));
    } catch (error) {
      if (!isSlackCallError(error)) throw error;
      // Slack not answering is no answer about the message: the question stays for a retry.
      if (isTransient(error)) {
        deps.logger.warn({ err: error, channel }, 'the direct message could not be read');
        await tellClicker(deps, body, buildFollowUpSlackBusy());
        return;
      }
      found = undefined;
    }
    // Only the message's writer may choose what becomes of it.
    if (!found?.user || found.user !== body.user.id) {
      await tellClicker(deps, body, buildRefusal('not_visible', ticketId));
      return;
    }
    const message: PersonMessage = { ...found, user: found.user, ts, channel };
    const key = threadMessageKey(channel, ts);
    let outcome: Awaited<ReturnType<typeof enqueueIntent>>;
    if (choice === 'reopen') {
      const payload: AddMessagePayload = {
        ticketId,
        userId: message.user,
        body: messageBody(message),
        channel,
        threadTs: ts,
        ts,
      };
      outcome = await enqueueIntent(deps, key, addMessage, payload);
      // Its thread follows the ticket from now on: the reopening is said there, and replies go on.
      if (outcome.enqueued) await deps.stores.links.link(ticketId, { channel, threadTs: ts });
    } else {
      outcome = await enqueueIntent(deps, key, createTicket, directMessageFiling(message));
    }
    const answer = !outcome.enqueued
      ? buildFollowUpDone(outcome.result as { ticketId?: unknown } | undefined)
      : choice === 'reopen'
        ? buildReopeningWithWords(ticketId)
        : buildFilingAsNew();
    if (body.response_url) await respond({ replace_original: true, ...answer });
    else await tellClicker(deps, body, answer);
  };
}
