/**
 * The create-ticket intent: files a ticket on the platform for a Slack person, posts the card or
 * the thread confirmation, and links the thread. It runs from the outbox, so the platform may
 * be down for a while and the process may restart: the idempotency key, derived from the Slack
 * delivery identity, makes every retry return the same ticket. Its steps live in
 * `create-ticket/`, one file each, in the order `run` takes them.
 */
import { hashIdempotencyKey, type Ticket } from '../../servicedesk/index.ts';
import type { JsonValue, ReservedEntry } from '../../store/types.ts';
import type { IntentDeps } from '../deps.ts';
import { TicketPostDelayedError } from '../errors.ts';
import { defineIntent, type IntentRunner } from '../outbox/intent-definition.ts';
import { showPaneStatus, titlePane } from '../threads/pane-threads.ts';
import { ThreadTicketFinder } from '../threads/thread-tickets.ts';
import { type PersonMessage, ticketFieldsOf } from '../tickets/message-text.ts';
import { CREATE_TICKET, type Posted, postCard } from './create-ticket/post-card.ts';
import { tellDelayed, tellFailed, tellFiled } from './create-ticket/tell-person.ts';
import { type Filing, requesterEmail, whatToFile } from './create-ticket/what-to-file.ts';
import {
  completeStepFailed,
  completeStepFiled,
  endStepBeforeFiled,
} from './create-ticket/workflow-step-run.ts';
import { askForDeskDetails, offerDeskDetails } from './desk-details.ts';
import {
  type CreateTicketPayload,
  type CreateTicketResult,
  createTicketPayloadSchema,
  type ThreadTakenResult,
} from './payloads.ts';

export type { CreateTicketPayload, CreateTicketResult, ThreadTakenResult } from './payloads.ts';

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

/** Files a ticket for a Slack person and posts its card or thread confirmation. */
export const createTicket = defineIntent({
  kind: CREATE_TICKET,
  schema: createTicketPayloadSchema,
  runner: createTicketRunner,
});

function createTicketRunner(deps: IntentDeps): IntentRunner<CreateTicketPayload> {
  const threads = new ThreadTicketFinder({ client: deps.client });
  return {
    async run(payload, entry) {
      // 1. What is filed, for whom; a reaction on a ticket's thread files nothing.
      const filing = await whatToFile(deps, threads, payload, entry);
      if ('taken' in filing) return filing.taken as unknown as JsonValue;
      // 2. Filed on the platform, or kept while the person is asked for the desk's fields.
      const filed = await fileOnPlatform(deps, payload, entry, filing);
      if (!('ticket' in filed)) return filed.awaiting as unknown as JsonValue;
      const { ticket } = filed;
      // 3. The card or confirmation, posted once; a step's run need not wait for a late card.
      const posted = await postCard(deps, entry, payload, ticket, filing.messageThreadTs).catch(
        async (error: unknown) => {
          if (error instanceof TicketPostDelayedError)
            await completeStepFiled(deps, payload, ticket);
          throw error;
        },
      );
      // 4. Everyone who waits on it hears: the step's run, the pane, the mirror, the person.
      await completeStepFiled(deps, payload, ticket);
      await afterFiled(deps, entry, payload, filing, ticket, posted);
      await tellFiled(deps, payload, ticket, posted);
      deps.logger.info(
        { ticket_id: ticket.id, channel: posted.channel, thread_ts: posted.threadTs },
        'ticket filed from Slack',
      );
      const { besideThreadOf: _beside, ...placement } = posted;
      const result: CreateTicketResult = { ticketId: ticket.id, ...placement };
      return result as unknown as JsonValue;
    },

    async failed(payload, error, context) {
      await completeStepFailed(deps, payload, error);
      await tellFailed(deps, payload, error, context);
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
      await tellDelayed(deps, payload, error, context);
    },
  };
}

/**
 * Files the ticket under the entry's idempotency key. A refusal for lacking the desk's required
 * fields keeps the filing and asks the person for them (what the entry remembers then); a
 * workflow step's run waited on too long ends saying the ticket is still coming.
 */
async function fileOnPlatform(
  deps: IntentDeps,
  payload: CreateTicketPayload,
  entry: ReservedEntry,
  filing: Filing,
): Promise<{ ticket: Ticket } | { awaiting: JsonValue }> {
  const { fields, requesterIds, messageThreadTs } = filing;
  try {
    const ticket = await deps.serviceDesk.createTicket(
      { ...fields, requester_email: await requesterEmail(deps, requesterIds), channel: 'slack' },
      { idempotencyKey: hashIdempotencyKey(entry.deliveryKey), priority: 'interactive' },
    );
    // Known at once as its requester's: their link to it unfurls without a read (unfurls/).
    deps.statuses.remember(ticket);
    return { ticket };
  } catch (error) {
    await endStepBeforeFiled(deps, payload, entry, error);
    // A workflow step's run ends with the refusal instead (the fields named): nobody is there
    // to fill in a form.
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
    if (asked) return { awaiting: asked as unknown as JsonValue };
    throw error;
  }
}

/**
 * What follows a posted card: the AI pane titled and "looking into it", the mirror told to
 * look soon, and the desk's missing required fields asked for.
 */
async function afterFiled(
  deps: IntentDeps,
  entry: ReservedEntry,
  payload: CreateTicketPayload,
  filing: Filing,
  ticket: Ticket,
  posted: Posted,
): Promise<void> {
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
    deskId: ticket.desk_id ?? filing.fields.desk_id,
    threadTs: filing.messageThreadTs,
  });
}
