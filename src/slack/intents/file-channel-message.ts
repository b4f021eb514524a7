/**
 * A request channel's message on its way to becoming a ticket. The listener queues it held for
 * a few seconds (CHANNEL_AUTO_HOLD_SECONDS), then this intent queues the create-ticket intent
 * under the message's own key (`messageKey`), the key a 🎫 reaction on it files under too. A
 * message deleted meanwhile is withdrawn under that same key first: the outbox lets one entry
 * per key exist, so whichever comes first wins, atomically, on every replica, and a deleted
 * message is never filed while a filed one is never lost. Once the create-ticket intent is
 * queued, the message is filed whatever happens to it, as any ticket is.
 */
import { z } from 'zod';
import type { JsonValue } from '../../store/types.ts';
import type { IntentDeps, SlackDeps } from '../deps.ts';
import { messageKey } from '../outbox/delivery-keys.ts';
import { defineIntent, enqueueIntent } from '../outbox/intent-definition.ts';
import { createTicket, createTicketPayloadSchema } from './create-ticket.ts';

/** The key of a channel message's held entry: one per message, whatever event brings it. */
export function heldMessageKey(channel: string, ts: string): string {
  return `channel-msg:${channel}:${ts}`;
}

/** The payload of a held request-channel message. */
export const fileChannelMessagePayloadSchema = z.object({
  channel: z.string(),
  ts: z.string(),
  /** The create-ticket intent's payload, queued as it is once the hold is over. */
  filing: createTicketPayloadSchema,
});
/** The payload of a held request-channel message. */
export type FileChannelMessagePayload = z.infer<typeof fileChannelMessagePayloadSchema>;

/** Queues the held message's ticket, unless its writer deleted it first. */
export const fileChannelMessage = defineIntent({
  kind: 'file_channel_message',
  schema: fileChannelMessagePayloadSchema,
  runner(deps: IntentDeps) {
    // Its failure for good is told as the create-ticket intent tells it: privately, with the text.
    const filing = createTicket.runner(deps);
    return {
      async run(payload) {
        const { channel, ts } = payload;
        const outcome = await enqueueIntent(
          deps,
          messageKey(channel, ts),
          createTicket,
          payload.filing,
        );
        if (!outcome.enqueued) {
          deps.logger.info(
            { channel, ts, state: outcome.state },
            'request channel message not queued for filing: deleted by its writer, or filed already',
          );
        }
        return { queued: outcome.enqueued };
      },
      failed: (payload, error, context) => filing.failed(payload.filing, error, context),
      logFields: (payload) => ({ channel: payload.channel, thread_ts: payload.ts }),
    };
  },
});

/** The payload of a withdrawal. */
export const withdrawChannelMessagePayloadSchema = z.object({
  channel: z.string(),
  ts: z.string(),
});

/**
 * Holds a deleted request-channel message's key, so its held entry files nothing. The entry
 * itself does nothing: taking the key was the whole of its work.
 */
export const withdrawChannelMessage = defineIntent({
  kind: 'withdraw_channel_message',
  schema: withdrawChannelMessagePayloadSchema,
  runner(deps: IntentDeps) {
    return {
      async run(payload) {
        deps.logger.info(
          { channel: payload.channel, ts: payload.ts },
          'request channel message deleted before it was filed: not filed',
        );
        return { withdrawn: true } as JsonValue;
      },
      // Nothing was asked of anyone: there is no one to tell.
      async failed() {},
      logFields: (payload) => ({ channel: payload.channel, thread_ts: payload.ts }),
    };
  },
});

/**
 * Withdraws a deleted message from filing: false when it was queued for filing already (or
 * withdrawn before), when the ticket stands.
 */
export async function withdrawMessage(
  deps: Pick<SlackDeps, 'stores' | 'logger'>,
  channel: string,
  ts: string,
): Promise<boolean> {
  const outcome = await enqueueIntent(deps, messageKey(channel, ts), withdrawChannelMessage, {
    channel,
    ts,
  });
  return outcome.enqueued;
}
