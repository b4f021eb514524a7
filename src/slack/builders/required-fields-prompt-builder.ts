/**
 * A filing without a form (🎫, a DM, a request channel) that its desk refused for lacking
 * required fields: the private prompt with its "Add the details" button, and the form that
 * button opens, which keeps the person's words (title and description) and asks for the desk's
 * required fields.
 */
import type { KnownBlock, ModalView } from '@slack/types';
import type { CustomField } from '../../contract/schemas.ts';
import { ACTIONS, CREATE_FIELDS, VIEWS } from '../ids.ts';
import { buildCreateModal } from './create-modal-builder.ts';
import { deskFieldBlocks } from './desk-fields-builder.ts';
import { LIMITS, md, plain, safeMrkdwn } from './mrkdwn.ts';
import type { SlackMessage } from './ticket-card-builder.ts';

/** What the prompt says and carries. */
export interface DeskDetailsPromptInput {
  /** The desk's name (or slug, when its name is unknown). */
  deskName: string;
  /** The fields the desk asked for, by their names (or keys). */
  fieldNames: readonly string[];
  /** The title the ticket would have had, so the person knows which filing this is. */
  title: string;
  /** What the button carries: the key the kept filing is found under. */
  pendingKey: string;
}

/** The private prompt: the desk needs more, nothing is lost, and the button to add it. */
export function buildDeskDetailsPrompt(input: DeskDetailsPromptInput): SlackMessage {
  const names = input.fieldNames.map((name) => `*${safeMrkdwn(name, 100)}*`).join(', ');
  const text = `:memo: The *${safeMrkdwn(input.deskName, 80)}* desk needs a few more details before it can file your request: ${names}. Nothing was filed yet, and nothing you wrote is lost: add them and it is filed.`;
  return {
    text,
    blocks: [
      { type: 'section', text: md(text) },
      {
        type: 'context',
        elements: [md(`Your request: _${safeMrkdwn(input.title, 200)}_`)],
      },
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            style: 'primary',
            action_id: ACTIONS.addDeskDetails,
            text: plain('Add the details', LIMITS.buttonText),
            value: input.pendingKey,
          },
        ],
      },
    ],
  };
}

/** What the follow-up prompt says and carries. */
export interface DeskDetailsFollowUpInput {
  ticketId: string;
  deskName: string;
  fieldNames: readonly string[];
  /** What the button carries: the key the details are kept under. */
  pendingKey: string;
}

/**
 * The private prompt after a ticket was filed without its desk's required fields (a platform
 * that asks for them later): it is filed, and the button adds them.
 */
export function buildDeskDetailsFollowUp(input: DeskDetailsFollowUpInput): SlackMessage {
  const names = input.fieldNames.map((name) => `*${safeMrkdwn(name, 100)}*`).join(', ');
  const text = `:memo: Your ticket *${safeMrkdwn(input.ticketId, 40)}* is filed. The *${safeMrkdwn(input.deskName, 80)}* desk also needs: ${names}. Add them now and its agents need not ask.`;
  return {
    text,
    blocks: [
      { type: 'section', text: md(text) },
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            style: 'primary',
            action_id: ACTIONS.addDeskDetails,
            text: plain('Add the details', LIMITS.buttonText),
            value: input.pendingKey,
          },
        ],
      },
    ],
  };
}

/** What the details form starts with. */
export interface DeskDetailsModalInput {
  privateMetadata: string;
  deskName: string;
  /** Set when the ticket is filed: the form asks for its fields only, and updates it. */
  ticketId?: string | undefined;
  /** The desk's fields to ask for: those it requires, and any the platform named. */
  fields: readonly CustomField[];
  title: string;
  description?: string | undefined;
  /** A line under the form, already safe mrkdwn (the fields are loading, or could not be). */
  notice?: string | undefined;
}

/**
 * The details form: the create form's title, description (spread over as many inputs as it
 * takes, so nothing is cut) and the desk's fields, without the desk and priority choices the
 * filing already made; read back with `readCreateForm`.
 */
export function buildDeskDetailsModal(input: DeskDetailsModalInput): ModalView {
  if (input.ticketId) return ticketDetailsModal({ ...input, ticketId: input.ticketId });
  const form = buildCreateModal({
    privateMetadata: input.privateMetadata,
    desks: [],
    fields: input.fields,
    title: input.title,
    ...(input.description ? { description: input.description } : {}),
    context: `The *${safeMrkdwn(input.deskName, 80)}* desk needs these details to file your request. What you wrote is kept below.`,
  });
  const blocks = (form.blocks as KnownBlock[]).filter(
    (block) => !('block_id' in block) || block.block_id !== CREATE_FIELDS.priority.block,
  );
  if (input.notice) blocks.push({ type: 'context', elements: [md(input.notice)] });
  return {
    ...form,
    callback_id: VIEWS.deskDetails,
    title: plain('Add the details', LIMITS.modalTitle),
    submit: plain('File ticket', LIMITS.modalSubmit),
    blocks,
  };
}

// The form for a filed ticket's fields: nothing else of it changes.
function ticketDetailsModal(input: DeskDetailsModalInput & { ticketId: string }): ModalView {
  const blocks: KnownBlock[] = [
    {
      type: 'context',
      elements: [
        md(
          `*${safeMrkdwn(input.ticketId, 40)}* is filed. The *${safeMrkdwn(input.deskName, 80)}* desk also needs these details.`,
        ),
      ],
    },
    ...deskFieldBlocks(input.fields),
  ];
  if (input.notice) blocks.push({ type: 'context', elements: [md(input.notice)] });
  return {
    type: 'modal',
    callback_id: VIEWS.deskDetails,
    title: plain('Add the details', LIMITS.modalTitle),
    submit: plain('Add to ticket', LIMITS.modalSubmit),
    close: plain('Cancel', LIMITS.modalSubmit),
    private_metadata: input.privateMetadata,
    blocks,
  };
}

/** The fields the form asks for: the desk's required ones and any the platform named. */
export function fieldsToAsk(
  fields: readonly CustomField[],
  named: readonly string[],
): CustomField[] {
  const wanted = new Set(named);
  return fields.filter((field) => field.required || wanted.has(field.key));
}

/** Said when the kept filing is gone (a day passed): where the words still are. */
export function buildDeskDetailsGone(): SlackMessage {
  const text =
    ':hourglass: This request waited more than a day for its details, so the app no longer keeps it. Your message is still in Slack: file it again with :ticket:, `/ticket` or a message to the app.';
  return { text, blocks: [{ type: 'section', text: md(text) }] };
}

/** Said to someone pressing another person's button (a forwarded or shared prompt). */
export function buildDeskDetailsNotYours(): SlackMessage {
  const text =
    ':no_entry: Only the person who asked for this ticket can add its details. To file your own, use `/ticket`.';
  return { text, blocks: [{ type: 'section', text: md(text) }] };
}

/** The details form's `private_metadata`: the key its filing is kept under. */
export function encodeDeskDetailsMetadata(pendingKey: string): string {
  return JSON.stringify({ pendingKey });
}

/** The key a details form's filing is kept under; undefined when the metadata is not one. */
export function decodeDeskDetailsMetadata(raw: string | undefined): string | undefined {
  try {
    const parsed = JSON.parse(raw ?? '') as { pendingKey?: unknown };
    return typeof parsed.pendingKey === 'string' ? parsed.pendingKey : undefined;
  } catch {
    return undefined;
  }
}

/** The line under the form while the desk's fields load. */
export const DESK_FIELDS_LOADING = '_Loading the desk’s fields…_';

/** The line under the form when the desk's fields cannot be read now. */
export const DESK_FIELDS_UNAVAILABLE =
  ':warning: The service desk did not list this desk’s fields just now. Close this form and press *Add the details* again in a minute; your words are kept.';
