/**
 * The agent's update modal (status, priority, assignee chosen as a Slack person), what it
 * carries in private_metadata, and reading a submitted one back.
 */
import type { KnownBlock, ModalView, PlainTextOption } from '@slack/types';
import { z } from 'zod';
import {
  TICKET_PRIORITIES,
  TICKET_STATUSES,
  type Ticket,
  type TicketPriority,
  type TicketStatus,
} from '../../contract/schemas.ts';
import { UPDATE_FIELDS, VIEWS } from '../ids.ts';
import { cardRefSchema } from './card-ref.ts';
import type { ViewStateValues } from './create-modal-builder.ts';
import { parseJsonAs } from './json-value.ts';
import { LIMITS, md, plain, safeMrkdwn, truncate } from './mrkdwn.ts';
import { priorityLabel, statusLabel } from './ticket-labels.ts';

const metadataSchema = z.object({
  ticketId: z.string(),
  /** The values the form opened with: only what the agent changed is sent. */
  initial: z
    .object({
      status: z.string().optional(),
      priority: z.string().optional(),
      assigneeUserId: z.string().optional(),
    })
    .optional(),
  card: cardRefSchema.optional(),
});
/** What the update modal carries. */
export type UpdateModalMetadata = z.infer<typeof metadataSchema>;

/** Encodes the metadata, leaving out the card to refresh if it would not fit. */
export function encodeUpdateMetadata(metadata: UpdateModalMetadata): string {
  const full = JSON.stringify(metadata);
  if (full.length <= LIMITS.privateMetadata) return full;
  const { card: _card, ...rest } = metadata;
  return JSON.stringify(rest);
}

/** Decodes the metadata; undefined when it is not the update modal's. */
export function decodeUpdateMetadata(raw: string | undefined): UpdateModalMetadata | undefined {
  return parseJsonAs(metadataSchema, raw);
}

const option = (text: string, value: string): PlainTextOption => ({
  text: plain(text, LIMITS.optionText),
  value,
});
const noEmoji = (label: string) => label.replace(/^:[a-z_]+: /, '');

/** The modal while the ticket is being read (trigger ids live 3 seconds: open first). */
export function buildUpdateModalLoading(ticketId: string, privateMetadata: string): ModalView {
  return {
    type: 'modal',
    callback_id: VIEWS.updateTicket,
    title: plain(`Update ${ticketId}`, LIMITS.modalTitle),
    close: plain('Cancel', LIMITS.modalSubmit),
    private_metadata: privateMetadata,
    blocks: [{ type: 'context', elements: [md(`_Loading ${safeMrkdwn(ticketId, 40)}…_`)] }],
  };
}

/** What the update form opens with. */
export interface UpdateModalInput {
  ticket: Ticket;
  privateMetadata: string;
  /** The Slack person whose email is the ticket's assignee, when one was found. */
  assigneeUserId?: string | undefined;
}

/** Builds the update form. */
export function buildUpdateModal(input: UpdateModalInput): ModalView {
  const { ticket } = input;
  const statuses = TICKET_STATUSES.map((s) => option(noEmoji(statusLabel(s)), s));
  const priorities = TICKET_PRIORITIES.map((p) => option(noEmoji(priorityLabel(p)), p));
  const initialStatus = statuses.find((o) => o.value === ticket.status);
  const initialPriority = priorities.find((o) => o.value === ticket.priority);
  const blocks: KnownBlock[] = [
    {
      type: 'section',
      text: md(`*${safeMrkdwn(ticket.id, 40)}* · ${safeMrkdwn(ticket.title, 500)}`),
    },
    {
      type: 'input',
      block_id: UPDATE_FIELDS.status.block,
      label: plain('Status', 50),
      element: {
        type: 'static_select',
        action_id: UPDATE_FIELDS.status.action,
        options: statuses,
        ...(initialStatus ? { initial_option: initialStatus } : {}),
      },
    },
    {
      type: 'input',
      block_id: UPDATE_FIELDS.priority.block,
      label: plain('Priority', 50),
      element: {
        type: 'static_select',
        action_id: UPDATE_FIELDS.priority.action,
        options: priorities,
        ...(initialPriority ? { initial_option: initialPriority } : {}),
      },
    },
    {
      type: 'input',
      block_id: UPDATE_FIELDS.assignee.block,
      optional: true,
      label: plain('Assignee', 50),
      hint: plain('Matched to the service desk by their email; they must be an agent there.', 150),
      element: {
        type: 'users_select',
        action_id: UPDATE_FIELDS.assignee.action,
        placeholder: plain('Choose a person', 150),
        ...(input.assigneeUserId ? { initial_user: input.assigneeUserId } : {}),
      },
    },
  ];
  if (ticket.assignee_email && !input.assigneeUserId) {
    blocks.push({
      type: 'context',
      elements: [
        md(
          `Assigned now to ${safeMrkdwn(ticket.assignee_email, 200)}, who is not in this Slack workspace.`,
        ),
      ],
    });
  }
  return {
    type: 'modal',
    callback_id: VIEWS.updateTicket,
    title: plain(`Update ${ticket.id}`, LIMITS.modalTitle),
    submit: plain('Save', LIMITS.modalSubmit),
    close: plain('Cancel', LIMITS.modalSubmit),
    private_metadata: input.privateMetadata,
    blocks,
  };
}

/** What an agent submitted in the update modal. */
export interface UpdateForm {
  status: TicketStatus | undefined;
  priority: TicketPriority | undefined;
  assigneeUserId: string | undefined;
}

/** Reads the update modal's values; values the contract does not know are left out. */
export function readUpdateForm(values: ViewStateValues): UpdateForm {
  const selected = (f: { block: string; action: string }) =>
    values[f.block]?.[f.action]?.selected_option?.value || undefined;
  const status = selected(UPDATE_FIELDS.status);
  const priority = selected(UPDATE_FIELDS.priority);
  return {
    status: (TICKET_STATUSES as readonly string[]).includes(status ?? '')
      ? (status as TicketStatus)
      : undefined,
    priority: (TICKET_PRIORITIES as readonly string[]).includes(priority ?? '')
      ? (priority as TicketPriority)
      : undefined,
    assigneeUserId:
      values[UPDATE_FIELDS.assignee.block]?.[UPDATE_FIELDS.assignee.action]?.selected_user ||
      undefined,
  };
}

/** Only the fields the agent changed from what the form opened with. */
export function changedFields(
  form: UpdateForm,
  initial: UpdateModalMetadata['initial'],
): Partial<UpdateForm> {
  const changed: Partial<UpdateForm> = {};
  if (form.status && form.status !== initial?.status) changed.status = form.status;
  if (form.priority && form.priority !== initial?.priority) changed.priority = form.priority;
  if (form.assigneeUserId && form.assigneeUserId !== initial?.assigneeUserId)
    changed.assigneeUserId = form.assigneeUserId;
  return changed;
}

/** The pronoun to name someone by after "assigned to", from their profile's; "them" otherwise. */
export function objectPronoun(pronouns: string | undefined): string {
  const words = (pronouns ?? '').toLowerCase().split(/[^a-z]+/);
  if (words.includes('she') || words.includes('her')) return 'her';
  if (words.includes('he') || words.includes('him')) return 'him';
  return 'them';
}

/** Said on the assignee field when the platform refuses someone who is not an agent there. */
export function notAnAgentError(person: { name: string; pronouns?: string | undefined }): string {
  return truncate(
    `${person.name} is not a service-desk agent, so the ticket can’t be assigned to ${objectPronoun(person.pronouns)}.`,
    150,
  );
}

// The platform's messages start with the kind of check that failed ("Value error, unknown
// desk"), which means nothing to the person: the rest is the reason.
function reasonOf(message: string): string {
  const reason = message.replace(/^[A-Za-z ]*error,\s*/i, '');
  return reason.charAt(0).toUpperCase() + reason.slice(1);
}

/** Maps a platform 422's field names to the modal's block ids. */
export function updateErrorsToBlocks(
  fieldErrors: Record<string, string>,
): Record<string, string> | undefined {
  const byField: Record<string, string> = {
    status: UPDATE_FIELDS.status.block,
    priority: UPDATE_FIELDS.priority.block,
    assignee_email: UPDATE_FIELDS.assignee.block,
  };
  const errors: Record<string, string> = {};
  for (const [field, message] of Object.entries(fieldErrors)) {
    const block = byField[field];
    if (block) errors[block] = truncate(reasonOf(message), 150);
  }
  return Object.keys(errors).length > 0 ? errors : undefined;
}
