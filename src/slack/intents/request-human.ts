/**
 * The request-human intent: "Talk to a person" on an AI answer adds a message to the ticket
 * asking for a human, written as the person who clicked, and tells the thread. Only the
 * ticket's requester or an agent may; the rule is applied when it runs, with the ticket as it
 * is then. The message itself goes through the add-message intent's path, so it is keyed,
 * idempotent and treated like any reply from the thread. The AI's earlier answers then stop
 * offering a person.
 */
import { z } from 'zod';
import { NotFoundError, type Ticket } from '../../servicedesk/index.ts';
import { buildPersonRequested, personRequestBody } from '../builders/change-notice-builder.ts';
import { describeFailure } from '../builders/failure-reason-builder.ts';
import { buildDelayedNotice, buildFailureNotice } from '../builders/notice-builder.ts';
import { buildRefusal } from '../builders/refusal-builder.ts';
import type { SlackMessage } from '../builders/ticket-card-builder.ts';
import type { IntentDeps } from '../deps.ts';
import { ChangeRefusedError, ClosedTicketError } from '../errors.ts';
import { defineIntent, type IntentRunner } from '../outbox/intent-definition.ts';
import { busyForMs } from '../outbox/transient-errors.ts';
import { actorOf, isRequester, mayAskForPerson } from '../people/ticket-access.ts';
import { tellPrivately } from '../posting/private-notice.ts';
import { threadsOffering, withdrawPersonOffers } from '../threads/person-offers.ts';
import { type AddMessagePayload, addReply } from './add-message.ts';

/** The payload queued for a request-human intent. */
export const requestHumanPayloadSchema = z.object({
  ticketId: z.string(),
  actorUserId: z.string(),
  channel: z.string(),
  /** The thread the button was clicked in; the request is announced there. */
  threadTs: z.string(),
  /** The message whose button was clicked. */
  messageTs: z.string(),
});
/** The payload of a request-human intent. */
export type RequestHumanPayload = z.infer<typeof requestHumanPayloadSchema>;

/** "Talk to a person": a message asking for a human, as the person who clicked. */
export const requestHuman = defineIntent({
  kind: 'request_human',
  schema: requestHumanPayloadSchema,
  runner: requestHumanRunner,
});

function requestHumanRunner(deps: IntentDeps): IntentRunner<RequestHumanPayload> {
  async function tell(payload: RequestHumanPayload, message: SlackMessage) {
    await tellPrivately(
      deps.client,
      { userId: payload.actorUserId, channel: payload.channel, threadTs: payload.threadTs },
      message,
    );
  }

  return {
    async run(payload, entry) {
      let ticket: Ticket;
      try {
        ticket = await deps.serviceDesk.getTicket(payload.ticketId, { priority: 'interactive' });
      } catch (error) {
        if (error instanceof NotFoundError)
          throw new ChangeRefusedError(payload.ticketId, 'not_visible');
        throw error;
      }
      deps.statuses.remember(ticket);
      const actor = await actorOf(deps, payload.actorUserId);
      const refusal = mayAskForPerson(ticket, actor);
      if (refusal) throw new ChangeRefusedError(ticket.id, refusal);
      const person = await deps.people.person(payload.actorUserId);
      const message: AddMessagePayload = {
        ticketId: ticket.id,
        userId: payload.actorUserId,
        body: personRequestBody(person.name),
        channel: payload.channel,
        threadTs: payload.threadTs,
        ts: payload.messageTs,
      };
      // Same delivery key, so the platform's idempotency makes a retry add nothing new. The
      // platform reopens a resolved ticket for its requester's message: said in this line, not
      // as "her reply reopened it", which would hide that she asked for a person.
      // Before the add: the AI's answer to it must not offer a person a second time.
      await deps.mirror.personAsked(ticket.id);
      const added = await addReply(deps, entry.deliveryKey, message, { announceReopen: false });
      const reopens = ticket.status === 'resolved' && isRequester(actor, ticket);
      if (reopens) deps.statuses.setStatus(ticket.id, 'open');
      // Read before the announcement: after it, only Slack's failures are left, and a retry
      // would announce it twice.
      const offering = await threadsOffering(deps, ticket.id, {
        channel: payload.channel,
        threadTs: payload.threadTs,
      });
      await deps.client.chat.postMessage({
        channel: payload.channel,
        thread_ts: payload.threadTs,
        ...buildPersonRequested(ticket.id, payload.actorUserId, { reopened: reopens }),
      });
      await withdrawPersonOffers(deps, ticket.id, offering);
      return added;
    },

    async failed(payload, error) {
      if (error instanceof ChangeRefusedError) {
        await tell(payload, buildRefusal(error.reason, payload.ticketId));
        return;
      }
      if (error instanceof ClosedTicketError) {
        await tell(payload, buildRefusal('closed', payload.ticketId));
        return;
      }
      const reason = describeFailure(error, `request for a person on ${payload.ticketId}`);
      await tell(payload, buildFailureNotice(reason, undefined));
    },

    async delayed(payload, error) {
      await tell(payload, buildDelayedNotice('request for a person', busyForMs(error)));
    },

    logFields(payload) {
      return { ticket_id: payload.ticketId, channel: payload.channel, thread_ts: payload.threadTs };
    },
  };
}
