/**
 * What the ticket intents keep in the outbox: the payloads they are queued with and the results
 * remembered against their delivery keys. Entries queued by an earlier release are parsed with
 * these schemas when they run, so a shape changes only in ways that still parse them. Kept apart
 * from the runners so that every module that stores a filing (the desk-details prompt, a channel
 * message's or a follow-up's filing) names it without importing a runner.
 */
import { z } from 'zod';
import { TICKET_PRIORITIES, TICKET_STATUSES } from '../../servicedesk/index.ts';
import { cardRefSchema } from '../builders/card-ref.ts';

/** A Slack message a ticket is made from. */
export const messageRefSchema = z.object({
  channel: z.string(),
  ts: z.string(),
  threadTs: z.string().optional(),
});
/** A Slack message a ticket is made from. */
export type MessageRef = z.infer<typeof messageRefSchema>;

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
  fromMessage: messageRefSchema.optional(),
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

/** Where a create-ticket intent posted the card or the thread confirmation. */
export interface Placement {
  channel: string;
  ts: string;
  /** The thread linked to the ticket (the card's ts, or the thread the notice went into). */
  threadTs: string;
  /** Set when it went to the person's DM because the app cannot post or hear there. */
  insteadOf?: string;
}

/** What the create-ticket intent remembers against the delivery key. */
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

/** The change asked for; the modal's assignee is a Slack person, matched by email when it runs. */
export const changeRequestSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('fields'),
    status: z.enum(TICKET_STATUSES).optional(),
    priority: z.enum(TICKET_PRIORITIES).optional(),
    assigneeUserId: z.string().optional(),
  }),
  z.object({ kind: z.literal('assign_to_me') }),
  z.object({ kind: z.literal('resolve') }),
  z.object({ kind: z.literal('reopen') }),
  // One step up from the priority the ticket has when it first runs (a 🔼 on its triage card).
  z.object({ kind: z.literal('raise_priority') }),
]);

/** The payload queued for an update-ticket intent. */
export const updateTicketPayloadSchema = z.object({
  ticketId: z.string(),
  /** Who asked: the rules are applied to them, and they are told the outcome. */
  actorUserId: z.string(),
  request: changeRequestSchema,
  /** The message the change came from, refreshed afterwards. */
  card: cardRefSchema.optional(),
  /** The update modal whose submission may still be waiting to show the outcome. */
  viewId: z.string().optional(),
});
/** The payload of an update-ticket intent. */
export type UpdateTicketPayload = z.infer<typeof updateTicketPayloadSchema>;

/** What the update-ticket intent remembers against the delivery key. */
export interface UpdateTicketResult {
  ticketId: string;
  status: string;
  changed: boolean;
}
