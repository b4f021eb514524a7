/**
 * The "is filed, its card comes…" notice a thread hears while Slack holds the confirmation back:
 * remembered by ticket, so the confirmation replaces it and one message names the ticket.
 */
import type { MessageMetadata } from '@slack/web-api';
import { DAY_MS } from '../../../store/types.ts';
import type { SlackMessage } from '../../builders/ticket-card-builder.ts';
import type { IntentDeps } from '../../deps.ts';
import { slackErrorOf } from '../../errors.ts';
import { ticketMetadata } from '../../posting/post-metadata.ts';

// Where a delay notice in a thread was posted, by ticket: the confirmation replaces it.
const NOTICE_PREFIX = 'card-notice:';

/** A delay notice posted in a conversation (kept under `NOTICE_PREFIX` and the ticket). */
export interface PostedNotice {
  channel: string;
  ts: string;
}

/**
 * Remembers the delay notice for the confirmation to replace; a notice not remembered (the
 * store away) only means the confirmation is posted beside it.
 */
export async function keepNotice(
  deps: Pick<IntentDeps, 'stores'>,
  ticketId: string,
  notice: PostedNotice,
): Promise<void> {
  const key = `${NOTICE_PREFIX}${ticketId}`;
  const claim = await deps.stores.claims.claim(key, DAY_MS);
  if (claim.state === 'claimed')
    await deps.stores.claims.complete(key, claim.token, { ...notice }, DAY_MS);
}

/** The delay notice posted in the thread while the confirmation waited, if one was. */
export async function delayNoticeOf(
  deps: Pick<IntentDeps, 'stores'>,
  ticketId: string,
  channel: string,
): Promise<string | undefined> {
  const record = await deps.stores.claims.get(`${NOTICE_PREFIX}${ticketId}`);
  const notice = record?.state === 'done' ? (record.result as PostedNotice | undefined) : undefined;
  return notice?.channel === channel ? notice.ts : undefined;
}

/** Turns the notice into the confirmation; false when the notice is gone (posted afresh then). */
export async function turnNoticeInto(
  deps: Pick<IntentDeps, 'client'>,
  notice: PostedNotice,
  confirmation: SlackMessage,
  ticketId: string,
): Promise<boolean> {
  try {
    // The notice carried no metadata; as the confirmation it names its ticket like any post.
    const metadata = ticketMetadata(ticketId) as MessageMetadata;
    await deps.client.chat.update({ ...notice, ...confirmation, metadata });
    return true;
  } catch (error) {
    const code = slackErrorOf(error);
    if (code === 'message_not_found' || code === 'cant_update_message') return false;
    throw error;
  }
}
