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
import { describeFailure } from '../builders/failure-reason-builder.ts';
import { buildFailureNotice } from '../builders/notice-builder.ts';
import type { IntentDeps, SlackDeps } from '../deps.ts';
import { NotFiledYetError } from '../errors.ts';
import { messageKey } from '../outbox/delivery-keys.ts';
import { defineIntent, enqueueIntent } from '../outbox/intent-definition.ts';
import { tellPrivately } from '../posting/private-notice.ts';
import { addReply } from './add-message.ts';
import { createTicket } from './create-ticket.ts';
import { createTicketPayloadSchema } from './payloads.ts';

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

/** The payload of an edit that came too late for its message's filing. */
export const addHeldEditPayloadSchema = z.object({
  channel: z.string(),
  /** The edited message, the root of its ticket's thread. */
  ts: z.string(),
  userId: z.string(),
  /** The edit as it goes on the ticket ("edited: …"). */
  body: z.string(),
  /** The key the message is filed under, when not a request channel's (`messageKey`). */
  filingKey: z.string().optional(),
});
/** The payload of an edit that came too late for its message's filing. */
export type AddHeldEditPayload = z.infer<typeof addHeldEditPayloadSchema>;

// How long after it was written a message still may be on its way to its held entry (an edit's
// event may come before the message's): then nothing is waited for any more.
const ON_ITS_WAY_MS = 5 * 60_000;

/**
 * Whether the message is held for filing, or was filed from its hold, or is recent enough to be
 * on its way there: an edit of any other (a message older than the channel's auto mode, say)
 * has no filing to wait for.
 */
export async function mayBeFiled(
  deps: Pick<SlackDeps, 'stores'>,
  channel: string,
  ts: string,
): Promise<boolean> {
  if (await deps.stores.outbox.delivery(heldMessageKey(channel, ts))) return true;
  return Date.now() - Number(ts) * 1000 < ON_ITS_WAY_MS;
}

/**
 * The ticket a request channel's message was filed as: its thread's link, else what its
 * create-ticket entry remembers. Null when it will not be filed (withdrawn, refused, failed:
 * its writer was told); `NotFiledYetError` while it may still be.
 */
async function filedAs(deps: IntentDeps, edit: AddHeldEditPayload): Promise<string | null> {
  const { channel, ts } = edit;
  const linked = await deps.stores.links.ticketForThread(channel, ts);
  if (linked) return linked;
  const filing = await deps.stores.outbox.delivery(edit.filingKey ?? messageKey(channel, ts));
  if (!filing && !(await mayBeFiled(deps, channel, ts))) return null;
  if (filing?.state === 'failed') return null;
  if (filing?.state === 'done') {
    const ticketId = (filing.result as { ticketId?: unknown } | null | undefined)?.ticketId;
    return typeof ticketId === 'string' ? ticketId : null;
  }
  throw new NotFiledYetError(channel, ts);
}

/**
 * An edit of a request channel's message (or a direct message to the app) that came once its
 * filing had started: the filing runs with the words it had, so the edit goes on the ticket as an "edited:" message once the
 * ticket exists, as an edit of a linked thread's message does. Keyed by the edit's event.
 */
export const addHeldEdit = defineIntent({
  kind: 'add_held_edit',
  schema: addHeldEditPayloadSchema,
  runner(deps: IntentDeps) {
    return {
      async run(payload, entry) {
        const { channel, ts } = payload;
        const ticketId = await filedAs(deps, payload);
        if (!ticketId) {
          deps.logger.info(
            { channel, thread_ts: ts },
            'edit of a request channel message not added: the message was not filed',
          );
          return { ticketId: null };
        }
        return addReply(deps, entry.deliveryKey, {
          ticketId,
          userId: payload.userId,
          body: payload.body,
          channel,
          threadTs: ts,
          ts,
        });
      },
      async failed(payload, error) {
        // Their words, privately, where they wrote them.
        await tellPrivately(
          deps.client,
          { userId: payload.userId, channel: payload.channel, threadTs: payload.ts },
          buildFailureNotice(describeFailure(error, 'edit'), payload.body),
        );
      },
      logFields: (payload) => ({ channel: payload.channel, thread_ts: payload.ts }),
    };
  },
});
