/**
 * The create-ticket intent: files a ticket on the platform for a Slack person, posts the card or
 * the thread confirmation, and links the thread. It runs from the outbox, so the platform may
 * be down for a while and the process may restart: the idempotency key, derived from the Slack
 * delivery identity, makes every retry return the same ticket.
 */
import type { MessageMetadata } from '@slack/web-api';
import { z } from 'zod';
import { hashIdempotencyKey, type Ticket } from '../../servicedesk/index.ts';
import { DAY_MS, type JsonValue, type ReservedEntry } from '../../store/types.ts';
import { buildFiledFromPrompt } from '../builders/closed-ticket-prompt-builder.ts';
import { buildStatusModal } from '../builders/create-modal-builder.ts';
import { describeFailure } from '../builders/failure-reason-builder.ts';
import { safeMrkdwn } from '../builders/mrkdwn.ts';
import {
  buildCardDelayedNotice,
  buildDelayedNotice,
  buildElsewhereLead,
  buildFailureNotice,
  buildFiledElsewhereText,
  buildLinkedThreadNotice,
} from '../builders/notice-builder.ts';
import {
  buildBesideThreadLead,
  buildFiledBesideThreadText,
} from '../builders/thread-taken-notice-builder.ts';
import {
  buildTicketCard,
  dashboardLink,
  type SlackMessage,
  ticketPageUrl,
} from '../builders/ticket-card-builder.ts';
import { stepFailureText, stepStillFilingText } from '../builders/workflow-step-error-builder.ts';
import { audienceIn } from '../cards/card-audience.ts';
import type { IntentDeps } from '../deps.ts';
import {
  AppNotInChannelError,
  InvalidIntentError,
  MessageNotFoundError,
  PersonWithoutEmailError,
  TicketNotPostedError,
  TicketPostDelayedError,
} from '../errors.ts';
import { defineIntent, type IntentRunner } from '../outbox/intent-definition.ts';
import { assertLeaseLeft } from '../outbox/lease-guard.ts';
import {
  busyForMs,
  isSlackCallError,
  isSlackRateLimited,
  isTransient,
} from '../outbox/transient-errors.ts';
import { audienceOf } from '../people/ticket-access.ts';
import { ticketMetadata } from '../posting/post-metadata.ts';
import { postToResponseUrl, tellPrivately } from '../posting/private-notice.ts';
import {
  appIsIn,
  findTicketPost,
  isConversationUnavailable,
  openDm,
  permalinkOf,
  sendDm,
} from '../posting/slack-posting.ts';
import { readMessageAt } from '../posting/thread-reader.ts';
import { showPaneStatus, titlePane } from '../threads/pane-threads.ts';
import { ownerOfThread, tellThreadTaken, ticketTitle } from '../threads/thread-owner.ts';
import { ThreadTicketFinder } from '../threads/thread-tickets.ts';
import {
  type PersonMessage,
  slackToPlain,
  ticketFieldsOf,
  titleFromText,
} from '../tickets/message-text.ts';
import { completeStepOnce } from './complete-workflow-step.ts';
import { askForDeskDetails, offerDeskDetails } from './desk-details.ts';

// The outbox kind of this intent.
const CREATE_TICKET = 'create_ticket';

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
      /** The desk's fields by key (text, a number, or a multi-select's values), as the platform takes them. */
      custom_fields: z
        .record(z.string(), z.union([z.string(), z.number(), z.array(z.string())]))
        .optional(),
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
  /**
   * The app's bot user, whose posts name their ticket: a reaction's thread is looked for a
   * ticket in its messages too when the links do not know it.
   */
  appUserId: z.string().optional(),
  /**
   * The thread's link moves to the new ticket from the one it belongs to: only the requester's
   * follow-up to a closed ticket says so. Otherwise a thread that is already a ticket's stays
   * with it.
   */
  moveThread: z.boolean().optional(),
  /**
   * A delay is told to the person alone, not in the thread: a request channel's message, whose
   * channel need not hear that the service desk is down.
   */
  tellDelayPrivately: z.boolean().optional(),
  /**
   * The response_url of the private "Filing…" the person is looking at (a prompt's button):
   * replaced by the outcome, so it never says "filing" after the ticket exists.
   */
  responseUrl: z.string().optional(),
  /**
   * The conversation is in Slack's AI pane: once filed, its title becomes the ticket's and it
   * shows "Looking into it…" until the AI agent's answer is posted (looks only: a failure is
   * logged, never retried).
   */
  pane: z.boolean().optional(),
  /**
   * The Workflow Builder step run this filing is (`function_executed`): the run is completed
   * with the ticket's id and link, or with why it was not filed, once.
   */
  workflowStep: z.object({ executionId: z.string() }).optional(),
});
/** The payload of a create-ticket intent. */
export type CreateTicketPayload = z.infer<typeof createTicketPayloadSchema>;

/**
 * How a person's top-level direct message to the app is filed: a ticket from its words, for
 * them, confirmed in its thread.
 */
export function directMessageFiling(
  message: PersonMessage & { user: string; ts: string },
): CreateTicketPayload {
  return {
    actorUserId: message.user,
    requesterUserIds: [message.user],
    ticket: ticketFieldsOf(message),
    reply: { kind: 'thread', channel: message.channel, threadTs: message.ts },
  };
}

/**
 * How the first message of a conversation in Slack's AI pane is filed: as a direct message is,
 * confirmed in the pane's thread, which becomes the ticket's.
 */
export function paneFiling(
  message: PersonMessage & { user: string; ts: string; thread_ts: string },
): CreateTicketPayload {
  return {
    ...directMessageFiling(message),
    reply: { kind: 'thread', channel: message.channel, threadTs: message.thread_ts },
    pane: true,
  };
}

/** Where the card or the thread confirmation was posted. */
interface Placement {
  channel: string;
  ts: string;
  /** The thread linked to the ticket (the card's ts, or the thread the notice went into). */
  threadTs: string;
  /** Set when it went to the person's DM because the app cannot post or hear there. */
  insteadOf?: string;
}

/** What the intent remembers against the delivery key. */
export interface CreateTicketResult extends Placement {
  ticketId: string;
}

/**
 * What a reaction remembers when its message's thread already was a ticket's: nothing was
 * filed, and the person was told which ticket the thread is.
 */
export interface ThreadTakenResult {
  threadTicketId: string;
  channel: string;
  threadTs: string;
  title?: string;
}

// Where a delay notice in a thread was posted, by ticket: the confirmation replaces it.
const NOTICE_PREFIX = 'card-notice:';

/** A delay notice posted in a conversation (kept under `NOTICE_PREFIX` and the ticket). */
interface PostedNotice {
  channel: string;
  ts: string;
}

/**
 * How long a workflow step's run waits for the service desk before it ends saying the ticket
 * is still coming. Slack gives a run's token 15 minutes (Slack's maintainers,
 * slackapi/bolt-python#1075); the outbox's retries come at most 5 minutes apart, so an attempt
 * falls between 10 and 15 minutes.
 */
export const DEFAULT_STEP_ANSWER_MS = 10 * 60_000;

const filedLead = (userId: string, ticketId: string) =>
  `:ticket: <@${userId}> filed *${safeMrkdwn(ticketId, 40)}*. Replies in this thread go to the ticket.`;

// Slack takes a person's id as a channel: the app's direct message with them.
const isPersonId = (channel: string) => /^[UW]/.test(channel);

/** Files a ticket for a Slack person and posts its card or thread confirmation. */
export const createTicket = defineIntent({
  kind: CREATE_TICKET,
  schema: createTicketPayloadSchema,
  runner: createTicketRunner,
});

function createTicketRunner(deps: IntentDeps): IntentRunner<CreateTicketPayload> {
  const threads = new ThreadTicketFinder({ client: deps.client });

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
    const { message, parent } = await readMessageAt(deps.client, ref).catch((error: unknown) => {
      // A reaction in a channel the app was never invited to: the person must learn to invite it.
      if (isConversationUnavailable(error))
        throw new AppNotInChannelError(ref.channel, { cause: error });
      throw error;
    });
    if (!message) throw new MessageNotFoundError(ref.channel, ref.ts);
    const text = slackToPlain(message.text ?? '');
    const permalink = await permalinkOf(deps.client, ref.channel, ref.ts);
    return {
      title: titleFromText(text) || 'Request from Slack',
      description: permalink ? `${text}\n\n— From Slack: ${permalink}` : text,
      authorId: message.user,
      parentAuthorId: parent?.user,
      threadTs: message.thread_ts ?? message.ts ?? ref.ts,
    };
  }

  /**
   * The ticket a reacted message's thread already is, when this entry is to tell the person so
   * instead of filing. An entry that got as far as posting its card before (a retry) filed the
   * ticket the thread now belongs to, and finishes as it began.
   */
  async function threadTakenBy(
    payload: CreateTicketPayload,
    entry: ReservedEntry,
    read: { threadTs: string; authorId: string | undefined; parentAuthorId: string | undefined },
  ): Promise<string | undefined> {
    if (payload.moveThread) return undefined;
    if (await deps.stores.claims.get(`card-post:${entry.deliveryKey}`)) return undefined;
    const app = payload.appUserId;
    return ownerOfThread(deps, threads, {
      channel: payload.reply.channel,
      threadTs: read.threadTs,
      appUserId: app,
      appWrote: app !== undefined && (read.authorId === app || read.parentAuthorId === app),
    });
  }

  async function tellTaken(
    payload: CreateTicketPayload,
    ref: z.infer<typeof messageRef>,
    threadTicketId: string,
    threadTs: string,
  ): Promise<ThreadTakenResult> {
    const title = await ticketTitle(deps, threadTicketId);
    const taken = {
      ticketId: threadTicketId,
      channel: ref.channel,
      ts: ref.ts,
      threadTs,
      userId: payload.actorUserId,
    };
    // In the thread when they reacted on a reply; where they saw the message otherwise.
    await tellThreadTaken(
      deps,
      { channel: ref.channel, ...(ref.ts !== threadTs ? { threadTs } : {}) },
      taken,
      title,
    );
    deps.logger.info(
      { ticket_id: threadTicketId, channel: ref.channel, thread_ts: threadTs },
      'ticket asked on a ticket’s thread: nothing filed, the person told',
    );
    return { threadTicketId, channel: ref.channel, threadTs, ...(title ? { title } : {}) };
  }

  // The thread the confirmation goes into, for a ticket made from a message.
  function threadOf(payload: CreateTicketPayload, messageThreadTs: string | undefined) {
    const threadTs = payload.reply.kind === 'thread' ? payload.reply.threadTs : undefined;
    return threadTs ?? messageThreadTs ?? payload.fromMessage?.ts;
  }

  // Remembers the delay notice for the confirmation to replace; a notice not remembered (the
  // store away) only means the confirmation is posted beside it.
  async function keepNotice(ticketId: string, notice: PostedNotice): Promise<void> {
    const key = `${NOTICE_PREFIX}${ticketId}`;
    const claim = await deps.stores.claims.claim(key, DAY_MS);
    if (claim.state === 'claimed')
      await deps.stores.claims.complete(key, claim.token, { ...notice }, DAY_MS);
  }

  // The delay notice posted in the thread while the confirmation waited, if one was.
  async function delayNoticeOf(ticketId: string, channel: string): Promise<string | undefined> {
    const record = await deps.stores.claims.get(`${NOTICE_PREFIX}${ticketId}`);
    const notice =
      record?.state === 'done' ? (record.result as PostedNotice | undefined) : undefined;
    return notice?.channel === channel ? notice.ts : undefined;
  }

  // False when the notice is gone (deleted): the confirmation is then posted afresh.
  async function turnNoticeInto(
    channel: string,
    ts: string,
    confirmation: SlackMessage,
    ticketId: string,
  ): Promise<boolean> {
    try {
      // The notice carried no metadata; as the confirmation it names its ticket like any post.
      const metadata = ticketMetadata(ticketId) as MessageMetadata;
      await deps.client.chat.update({ channel, ts, ...confirmation, metadata });
      return true;
    } catch (error) {
      const code = (error as { data?: { error?: string } } | null)?.data?.error;
      if (code === 'message_not_found' || code === 'cant_update_message') return false;
      throw error;
    }
  }

  async function postWhereAsked(
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
      const notice = await delayNoticeOf(ticket.id, channel);
      if (notice && (await turnNoticeInto(channel, notice, confirmation, ticket.id)))
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
   * Posts the card or confirmation where the person acted when the app is there to hear the
   * thread's replies; otherwise (or when Slack will not take it) in the person's direct message
   * with the app, saying why. Then links the thread it went to. The ticket exists by now, so a
   * failure for good is a `TicketNotPostedError`, never a "not filed".
   */
  /**
   * The card or confirmation an earlier run of this entry posted, if it did: a run that died
   * (or ran out of lease) after posting and before recording it. Marked before every first
   * post, so Slack is searched only when a post may exist.
   */
  async function earlierPost(
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

  async function post(
    entry: ReservedEntry,
    payload: CreateTicketPayload,
    ticket: Ticket,
    messageThreadTs: string | undefined,
  ): Promise<Placement & { besideThreadOf?: string }> {
    const asked = payload.reply.channel;
    try {
      let placed = await earlierPost(entry, payload, ticket, messageThreadTs);
      // The post must finish inside the lease, or the worker taking the entry over posts too.
      if (!placed) assertLeaseLeft(entry);
      // A thread that is another ticket's (a message of it filed from the shortcut's modal, the
      // thread linked meanwhile) stays with it: the new ticket's card and thread go to the DM.
      const besideThreadOf = placed
        ? undefined
        : await otherTicketsThread(payload, ticket, messageThreadTs);
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
        placed = await postWhereAsked(payload, ticket, messageThreadTs).catch((error: unknown) => {
          if (isConversationUnavailable(error)) return undefined;
          throw error;
        });
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

  // The ticket the thread a confirmation would go into belongs to, when it is another one.
  async function otherTicketsThread(
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

  /**
   * Replaces the private "Filing…" with what came of it; false when its response_url no longer
   * takes posts (used up, or older than Slack's 30 minutes), in which case it stays as it was.
   */
  async function replaceFiling(
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

  // A step's run ends with the ticket once it is filed, its card posted or not.
  async function completeStepFiled(payload: CreateTicketPayload, ticket: Ticket): Promise<void> {
    if (!payload.workflowStep) return;
    const url = dashboardLink(ticket, deps.settings.dashboardUrl);
    await completeStepOnce(deps, payload.workflowStep.executionId, {
      kind: 'success',
      outputs: { ticket_id: ticket.id, ...(url ? { ticket_url: url } : {}) },
    });
  }

  // A step's run whose filing failed for good ends with why; one filed but never shown in
  // Slack ends with its ticket all the same.
  async function completeStepFailed(payload: CreateTicketPayload, error: unknown): Promise<void> {
    if (!payload.workflowStep) return;
    const { executionId } = payload.workflowStep;
    if (error instanceof TicketNotPostedError || error instanceof TicketPostDelayedError) {
      const url = ticketPageUrl(error.ticketId, deps.settings.dashboardUrl);
      await completeStepOnce(deps, executionId, {
        kind: 'success',
        outputs: { ticket_id: error.ticketId, ...(url ? { ticket_url: url } : {}) },
      });
      return;
    }
    await completeStepOnce(deps, executionId, { kind: 'error', error: stepFailureText(error) });
  }

  /**
   * A step's run the service desk has kept waiting past the step's time: it ends now, saying
   * the ticket is still coming, and the filing goes on (the person gets its card as ever).
   */
  async function endStepBeforeFiled(
    payload: CreateTicketPayload,
    entry: ReservedEntry,
    error: unknown,
  ): Promise<void> {
    if (!payload.workflowStep || !isTransient(error)) return;
    const waitedMs = Date.now() - entry.createdAt;
    const answerWithinMs = deps.settings.workflowStepAnswerMs ?? DEFAULT_STEP_ANSWER_MS;
    if (waitedMs < answerWithinMs) return;
    const requesterId = payload.requesterUserIds[0] as string;
    // Named as a workflow's builder knows them; their id when Slack does not say.
    const requester = await deps.people
      .person(requesterId)
      .then((person) => person.name || requesterId)
      .catch(() => requesterId);
    await completeStepOnce(deps, payload.workflowStep.executionId, {
      kind: 'error',
      error: stepStillFilingText(requester, Math.max(1, Math.round(waitedMs / 60_000))),
    });
  }

  function originalText(payload: CreateTicketPayload): string | undefined {
    if (!payload.ticket) return undefined;
    return [payload.ticket.title, payload.ticket.description].filter(Boolean).join('\n\n');
  }

  return {
    async run(payload, entry) {
      let fields = payload.ticket;
      let requesterIds = payload.requesterUserIds;
      let messageThreadTs: string | undefined;
      if (!fields) {
        if (!payload.fromMessage)
          throw new InvalidIntentError(entry.kind, 'neither ticket nor fromMessage');
        const { authorId, parentAuthorId, threadTs, ...fromMessage } = await ticketFromMessage(
          payload.fromMessage,
        );
        // Only now is a reply's thread known: a thread that is a ticket's files nothing.
        const owner = await threadTakenBy(payload, entry, { threadTs, authorId, parentAuthorId });
        if (owner) {
          const told = await tellTaken(payload, payload.fromMessage, owner, threadTs);
          return told as unknown as JsonValue;
        }
        // A reacted message goes to its channel's desk (CHANNEL_DESKS), as the channel's forms do.
        const desk = deps.settings.channelDesks.get(payload.fromMessage.channel);
        fields = { ...fromMessage, ...(desk ? { desk_id: desk } : {}) };
        messageThreadTs = threadTs;
        if (authorId) requesterIds = [authorId, ...requesterIds.filter((id) => id !== authorId)];
      }
      let ticket: Ticket;
      try {
        ticket = await deps.serviceDesk.createTicket(
          { ...fields, requester_email: await requesterEmail(requesterIds), channel: 'slack' },
          { idempotencyKey: hashIdempotencyKey(entry.deliveryKey), priority: 'interactive' },
        );
      } catch (error) {
        await endStepBeforeFiled(payload, entry, error);
        // A workflow step's run ends with the refusal instead (the fields named): nobody is
        // there to fill in a form.
        if (payload.workflowStep) throw error;
        // Refused for lacking the desk's required fields: kept, and the person asked for them.
        const asked = await askForDeskDetails(
          deps,
          {
            deliveryKey: entry.deliveryKey,
            payload,
            ticket: fields,
            requesterUserIds: requesterIds,
            threadTs: messageThreadTs,
          },
          error,
        );
        if (asked) return asked as unknown as JsonValue;
        throw error;
      }
      // Known at once as its requester's: their link to it unfurls without a read (unfurls/).
      deps.statuses.remember(ticket);
      const posted = await post(entry, payload, ticket, messageThreadTs).catch(
        async (error: unknown) => {
          // Filed, its card held back by Slack for now: the run need not wait for the card.
          if (error instanceof TicketPostDelayedError) await completeStepFiled(payload, ticket);
          throw error;
        },
      );
      await completeStepFiled(payload, ticket);
      // After the confirmation, which ends any status Slack showed: the AI answer is next.
      if (payload.pane && !posted.insteadOf && !posted.besideThreadOf) {
        const thread = { channel: posted.channel, threadTs: posted.threadTs };
        await titlePane(deps, thread, ticket.title);
        await showPaneStatus(deps, thread);
      }
      // The AI agent answers a new ticket within seconds: the mirror looks soon.
      await deps.mirror.slackWrote(ticket.id);
      deps.mirror.ticketFiled(ticket);
      // A platform that filed it without its desk's required fields asks for them later.
      await offerDeskDetails(deps, {
        deliveryKey: entry.deliveryKey,
        payload,
        ticket,
        deskId: ticket.desk_id ?? fields.desk_id,
        threadTs: messageThreadTs,
      });
      await updateView(
        payload.viewId,
        'Ticket filed',
        posted.besideThreadOf
          ? buildFiledBesideThreadText(ticket.id, posted.besideThreadOf)
          : posted.insteadOf
            ? buildFiledElsewhereText(ticket.id, posted.insteadOf)
            : `:white_check_mark: *${safeMrkdwn(ticket.id, 40)}* is filed. You can close this window.`,
      );
      await replaceFiling(
        payload,
        buildFiledFromPrompt(
          ticket.id,
          payload.reply.kind === 'thread' && !posted.insteadOf ? 'thread' : 'dm',
        ),
      );
      deps.logger.info(
        { ticket_id: ticket.id, channel: posted.channel, thread_ts: posted.threadTs },
        'ticket filed from Slack',
      );
      const { besideThreadOf: _beside, ...placement } = posted;
      const result: CreateTicketResult = { ticketId: ticket.id, ...placement };
      return result as unknown as JsonValue;
    },

    async failed(payload, error, context) {
      await completeStepFailed(payload, error);
      // A modal whose submission is still waiting shows the failure itself, on its fields.
      if (context.awaited && payload.viewId) return;
      const reason = describeFailure(error, 'ticket');
      // A filed ticket is never reported as "not filed": the person would file it twice.
      const filed =
        error instanceof TicketNotPostedError || error instanceof TicketPostDelayedError;
      await updateView(payload.viewId, filed ? 'Ticket filed' : 'Ticket not filed', reason);
      const notice = buildFailureNotice(reason, filed ? undefined : originalText(payload));
      // The "Filing…" they are looking at becomes the failure, their words in it.
      if (await replaceFiling(payload, notice)) return;
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

    logFields(payload, result) {
      // The ticket and its thread are known once filed; before that, where the reply goes.
      const done = result as
        | (Partial<CreateTicketResult> & Partial<ThreadTakenResult>)
        | null
        | undefined;
      return {
        ticket_id: done?.ticketId ?? done?.threadTicketId,
        channel: done?.channel ?? payload.reply.channel,
        thread_ts:
          done?.threadTs ?? (payload.reply.kind === 'thread' ? payload.reply.threadTs : done?.ts),
      };
    },

    async delayed(payload, error, context) {
      if (context.awaited && payload.viewId) return;
      // Slack not answering before anything was filed (reading a reacted message, telling whose
      // thread it is): the service desk is fine and nothing is lost; the retry tells the person.
      if (!(error instanceof TicketPostDelayedError) && isSlackCallError(error)) return;
      const notice =
        error instanceof TicketPostDelayedError
          ? buildCardDelayedNotice(error.ticketId, isSlackRateLimited(error.cause))
          : buildDelayedNotice('ticket', busyForMs(error));
      // The private "Filing…" the person is looking at says it; nothing else is posted.
      if (await replaceFiling(payload, notice)) return;
      if (payload.reply.kind === 'thread' && payload.tellDelayPrivately) {
        const { channel, threadTs } = payload.reply;
        await tellPrivately(
          deps.client,
          { userId: payload.actorUserId, channel, threadTs },
          notice,
        );
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
          await keepNotice(error.ticketId, {
            channel: posted.channel ?? payload.reply.channel,
            ts: posted.ts,
          });
        return;
      }
      const title = error instanceof TicketPostDelayedError ? 'Ticket filed' : 'Filing your ticket';
      await updateView(payload.viewId, title, notice.text);
    },
  };
}
