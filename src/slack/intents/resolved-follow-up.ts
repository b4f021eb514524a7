/**
 * A person's direct message to the app soon after one of their tickets was resolved
 * (REOPEN_WINDOW): "still broken" is most likely about that ticket, so before anything is filed
 * they are asked privately, their words shown, whether to reopen it with them or file a new
 * ticket (`listeners/actions/resolved-follow-up.ts` does what they choose). Either choice is
 * keyed by the message, so a double click, or both buttons, do one thing. When the ticket is
 * known open again by the time the question would go, or Slack will not take the question, the
 * message is filed as a new ticket, as a direct message always was: nothing is lost.
 */
import { z } from 'zod';
import type { JsonValue } from '../../store/types.ts';
import { buildResolvedFollowUpPrompt } from '../builders/closed-ticket-prompt-builder.ts';
import type { IntentDeps, SlackDeps } from '../deps.ts';
import { threadMessageKey } from '../outbox/delivery-keys.ts';
import { defineIntent, enqueueIntent } from '../outbox/intent-definition.ts';
import { DEFAULT_REOPEN_WINDOW_MS, recentResolutions } from '../threads/requester-notices.ts';
import { lastKnownStatus } from '../tickets/closed-ticket-rules.ts';
import { createTicket } from './create-ticket.ts';
import { type CreateTicketPayload, createTicketPayloadSchema } from './payloads.ts';

/** The payload of the question. */
export const askAfterResolvePayloadSchema = z.object({
  /** The ticket resolved lately (the newest, when several were). */
  ticketId: z.string(),
  title: z.string().optional(),
  userId: z.string(),
  /** The direct message. */
  channel: z.string(),
  ts: z.string(),
  /** Its words, as the ticket would read them. */
  body: z.string(),
  /** How it is filed as a new ticket, as any direct message is. */
  filing: createTicketPayloadSchema,
});
/** The payload of the question. */
export type AskAfterResolvePayload = z.infer<typeof askAfterResolvePayloadSchema>;

/** Files the direct message as a new ticket, under the key both of the question's buttons use. */
async function fileAsNew(
  deps: Pick<SlackDeps, 'logger' | 'stores'>,
  payload: AskAfterResolvePayload,
): Promise<void> {
  await enqueueIntent(
    deps,
    threadMessageKey(payload.channel, payload.ts),
    createTicket,
    payload.filing,
  );
}

/** Asks the person privately whether their direct message is about their resolved ticket. */
export const askAfterResolve = defineIntent({
  kind: 'ask_after_resolve',
  schema: askAfterResolvePayloadSchema,
  runner(deps: IntentDeps) {
    return {
      async run(payload) {
        const known = await lastKnownStatus(deps, payload.ticketId);
        if (known && known.status !== 'resolved') {
          // Open again (or closed for good) since: the message is a new request, as before.
          await fileAsNew(deps, payload);
          return { asked: false };
        }
        const { ticketId, channel, ts } = payload;
        await deps.client.chat.postEphemeral({
          channel,
          user: payload.userId,
          ...buildResolvedFollowUpPrompt({ ticketId, channel, ts }, payload.title, payload.body),
        });
        return { asked: true, ticketId } as JsonValue;
      },
      // The question could not be asked: the message is filed as it always was, not lost.
      failed: (payload) => fileAsNew(deps, payload),
      logFields: (payload) => ({
        ticket_id: payload.ticketId,
        channel: payload.channel,
        thread_ts: payload.ts,
      }),
    };
  },
});

/**
 * Queues the question instead of the filing when the person had a ticket resolved within
 * REOPEN_WINDOW (a Redis read, no Slack or platform call before the ack); false otherwise,
 * when the caller files the message as before.
 */
export async function askIfResolvedLately(
  deps: Pick<SlackDeps, 'logger' | 'settings' | 'stores'>,
  dm: { userId: string; channel: string; ts: string; body: string; filing: CreateTicketPayload },
  key: string,
): Promise<boolean> {
  const windowMs = deps.settings.reopenWindowMs ?? DEFAULT_REOPEN_WINDOW_MS;
  const [latest] = await recentResolutions({ kept: deps.stores.fairShare, windowMs }, dm.userId);
  if (!latest) return false;
  const payload: AskAfterResolvePayload = {
    ticketId: latest.ticketId,
    ...(latest.title ? { title: latest.title } : {}),
    ...dm,
  };
  await enqueueIntent(deps, key, askAfterResolve, payload);
  return true;
}
