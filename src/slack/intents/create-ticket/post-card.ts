/**
 * The create-ticket intent's posting step: the card or thread confirmation of a filed ticket,
 * posted once (found again after a crash), where the person acted when the app can hear there,
 * in their DM otherwise, and its thread linked to the ticket.
 */
import type { Ticket } from '../../../servicedesk/index.ts';
import { DAY_MS, type ReservedEntry } from '../../../store/types.ts';
import { safeMrkdwn } from '../../builders/mrkdwn.ts';
import { buildElsewhereLead, buildLinkedThreadNotice } from '../../builders/notice-builder.ts';
import { buildBesideThreadLead } from '../../builders/thread-taken-notice-builder.ts';
import { buildTicketCard } from '../../builders/ticket-card-builder.ts';
import { audienceIn } from '../../cards/card-audience.ts';
import type { IntentDeps } from '../../deps.ts';
import { InvalidIntentError, TicketNotPostedError, TicketPostDelayedError } from '../../errors.ts';
import { assertLeaseLeft } from '../../outbox/lease-guard.ts';
import { isSlackCallError, isTransient } from '../../outbox/transient-errors.ts';
import { audienceOf } from '../../people/ticket-access.ts';
import { ticketMetadata } from '../../posting/post-metadata.ts';
import {
  appIsIn,
  findTicketPost,
  isConversationUnavailable,
  openDm,
  sendDm,
} from '../../posting/slack-posting.ts';
import type { CreateTicketPayload, Placement } from '../payloads.ts';
import { delayNoticeOf, turnNoticeInto } from './delay-notice.ts';

/** The outbox kind of the create-ticket intent. */
export const CREATE_TICKET = 'create_ticket';

/** Where the card went, and the other ticket whose thread it stayed out of, if any. */
export type Posted = Placement & { besideThreadOf?: string };

const filedLead = (userId: string, ticketId: string) =>
  `:ticket: <@${userId}> filed *${safeMrkdwn(ticketId, 40)}*. Replies in this thread go to the ticket.`;

// Slack takes a person's id as a channel: the app's direct message with them.
const isPersonId = (channel: string) => /^[UW]/.test(channel);

/**
 * Posts the card or confirmation where the person acted when the app is there to hear the
 * thread's replies; otherwise (or when Slack will not take it) in the person's direct message
 * with the app, saying why. Then links the thread it went to. The ticket exists by now, so a
 * failure for good is a `TicketNotPostedError`, never a "not filed".
 */
export async function postCard(
  deps: IntentDeps,
  entry: ReservedEntry,
  payload: CreateTicketPayload,
  ticket: Ticket,
  messageThreadTs: string | undefined,
): Promise<Posted> {
  const asked = payload.reply.channel;
  try {
    let placed = await earlierPost(deps, entry, payload, ticket, messageThreadTs);
    // The post must finish inside the lease, or the worker taking the entry over posts too.
    if (!placed) assertLeaseLeft(entry);
    // A thread that is another ticket's (a message of it filed from the shortcut's modal, the
    // thread linked meanwhile) stays with it: the new ticket's card and thread go to the DM.
    const besideThreadOf = placed
      ? undefined
      : await otherTicketsThread(deps, payload, ticket, messageThreadTs);
    if (besideThreadOf) {
      const card = buildTicketCard(ticket, {
        dashboardUrl: deps.settings.dashboardUrl,
        lead: buildBesideThreadLead(ticket.id, besideThreadOf),
        audience: await audienceOf(deps, payload.actorUserId, ticket),
      });
      const dm = await sendDm(deps.client, payload.actorUserId, card, ticketMetadata(ticket.id));
      placed = { ...dm, threadTs: dm.ts };
      await deps.stores.links.link(ticket.id, {
        channel: placed.channel,
        threadTs: placed.threadTs,
      });
      return { ...placed, besideThreadOf };
    }
    if (!placed && (await appIsIn(deps.client, asked)) !== false) {
      placed = await postWhereAsked(deps, payload, ticket, messageThreadTs).catch(
        (error: unknown) => {
          if (isConversationUnavailable(error)) return undefined;
          throw error;
        },
      );
    }
    if (!placed) {
      const card = buildTicketCard(ticket, {
        dashboardUrl: deps.settings.dashboardUrl,
        lead: buildElsewhereLead(ticket.id, asked, payload.reply.kind === 'thread'),
        // Their DM: only their own buttons.
        audience: await audienceOf(deps, payload.actorUserId, ticket),
      });
      const dm = await sendDm(deps.client, payload.actorUserId, card, ticketMetadata(ticket.id));
      placed = { ...dm, threadTs: dm.ts, insteadOf: asked };
    }
    await deps.stores.links.link(
      ticket.id,
      { channel: placed.channel, threadTs: placed.threadTs },
      { move: payload.moveThread === true },
    );
    return placed;
  } catch (error) {
    // Slack not taking the post yet: the person must hear that the ticket exists, not that
    // the service desk is not answering.
    if (isTransient(error) && isSlackCallError(error))
      throw new TicketPostDelayedError(ticket.id, { cause: error });
    if (isTransient(error)) throw error;
    throw new TicketNotPostedError(ticket.id, { cause: error });
  }
}

// The thread the confirmation goes into, for a ticket made from a message.
function threadOf(payload: CreateTicketPayload, messageThreadTs: string | undefined) {
  const threadTs = payload.reply.kind === 'thread' ? payload.reply.threadTs : undefined;
  return threadTs ?? messageThreadTs ?? payload.fromMessage?.ts;
}

async function postWhereAsked(
  deps: IntentDeps,
  payload: CreateTicketPayload,
  ticket: Ticket,
  messageThreadTs: string | undefined,
): Promise<Placement> {
  const { dashboardUrl } = deps.settings;
  const channel = payload.reply.channel;
  if (payload.reply.kind === 'thread') {
    const threadTs = threadOf(payload, messageThreadTs);
    if (!threadTs) throw new InvalidIntentError(CREATE_TICKET, 'no thread to reply in');
    const confirmation = buildLinkedThreadNotice(ticket, {
      dashboardUrl,
      filedBy: payload.actorUserId,
      audience: await audienceIn(deps, channel, payload.actorUserId, ticket),
    });
    // The thread heard "is filed, its card comes…": that notice becomes the confirmation, so
    // one message names the ticket, not two.
    const notice = await delayNoticeOf(deps, ticket.id, channel);
    if (notice && (await turnNoticeInto(deps, { channel, ts: notice }, confirmation, ticket.id)))
      return { channel, ts: notice, threadTs };
    const posted = await deps.client.chat.postMessage({
      channel,
      thread_ts: threadTs,
      ...confirmation,
      metadata: ticketMetadata(ticket.id),
    });
    return { channel, ts: posted.ts as string, threadTs };
  }
  // A person's id posts into their DM with the app: the card carries that person's buttons
  // (a workflow files for a requester who need not be who ran it).
  const viewer = isPersonId(channel) ? channel : payload.actorUserId;
  const posted = await deps.client.chat.postMessage({
    channel,
    ...buildTicketCard(ticket, {
      dashboardUrl,
      lead: filedLead(payload.actorUserId, ticket.id),
      audience: await audienceIn(deps, channel, viewer, ticket),
    }),
    metadata: ticketMetadata(ticket.id),
  });
  // A user id as the channel posts into the app's DM with them; the thread is the posted one.
  return {
    channel: posted.channel ?? channel,
    ts: posted.ts as string,
    threadTs: posted.ts as string,
  };
}

/**
 * The card or confirmation an earlier run of this entry posted, if it did: a run that died
 * (or ran out of lease) after posting and before recording it. Marked before every first
 * post, so Slack is searched only when a post may exist.
 */
async function earlierPost(
  deps: IntentDeps,
  entry: ReservedEntry,
  payload: CreateTicketPayload,
  ticket: Ticket,
  messageThreadTs: string | undefined,
): Promise<Placement | undefined> {
  const mark = await deps.stores.claims.claim(`card-post:${entry.deliveryKey}`, DAY_MS);
  if (mark.state === 'claimed') return undefined;
  // A person's id stands for their DM with the app, which is where such a post went.
  const asked = isPersonId(payload.reply.channel)
    ? await openDm(deps.client, payload.reply.channel)
    : payload.reply.channel;
  const places = [
    {
      channel: asked,
      threadTs: payload.reply.kind === 'thread' ? threadOf(payload, messageThreadTs) : undefined,
    },
    { channel: await openDm(deps.client, payload.actorUserId) },
  ];
  for (const place of places) {
    const found = await findTicketPost(deps.client, place, ticket.id).catch((error: unknown) => {
      if (isConversationUnavailable(error)) return undefined;
      throw error;
    });
    if (found)
      return found.channel === asked ? found : { ...found, insteadOf: payload.reply.channel };
  }
  return undefined;
}

// The ticket the thread a confirmation would go into belongs to, when it is another one.
async function otherTicketsThread(
  deps: IntentDeps,
  payload: CreateTicketPayload,
  ticket: Ticket,
  messageThreadTs: string | undefined,
): Promise<string | undefined> {
  if (payload.reply.kind !== 'thread' || payload.moveThread) return undefined;
  const threadTs = threadOf(payload, messageThreadTs);
  if (!threadTs) return undefined;
  const owner = await deps.stores.links.ticketForThread(payload.reply.channel, threadTs);
  return owner && owner !== ticket.id ? owner : undefined;
}
