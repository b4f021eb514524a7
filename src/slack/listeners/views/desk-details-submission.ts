/**
 * The details form's submission. For a filed ticket lacking its desk's required fields (a
 * platform that asks for them later), one update of its custom fields (set-desk-details).
 * Otherwise it files the kept filing (a 🎫, DM or request-channel message the
 * desk refused for lacking required fields) with the fields and the words as the person left
 * them. It runs the create-ticket intent under a key derived from the first filing's
 * (`deskDetailsKey`), so a double click, a second form opened from the same prompt, or another
 * replica files once; a platform 422 shows on its input, and a corrected submission is tried
 * again (`submitModalIntent`).
 */
import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';
import { ValidationError } from '../../../servicedesk/index.ts';
import {
  buildStatusModal,
  platformIssuesToBlocks,
  readCreateForm,
  type ViewStateValues,
  validateCreateForm,
} from '../../builders/create-modal-builder.ts';
import { readDeskFields } from '../../builders/desk-fields-builder.ts';
import { describeFailure } from '../../builders/failure-reason-builder.ts';
import { safeMrkdwn } from '../../builders/mrkdwn.ts';
import { buildFiledElsewhereText } from '../../builders/notice-builder.ts';
import {
  buildDeskDetailsGone,
  buildDeskDetailsNotYours,
  decodeDeskDetailsMetadata,
} from '../../builders/required-fields-prompt-builder.ts';
import type { SlackDeps } from '../../deps.ts';
import { CREATE_FIELDS } from '../../ids.ts';
import {
  type CreateTicketPayload,
  type CreateTicketResult,
  createTicket,
} from '../../intents/create-ticket.ts';
import {
  deskDetailsKey,
  isPendingTicket,
  type PendingTicket,
  pendingActor,
  pendingDetailsOf,
} from '../../intents/desk-details.ts';
import { type SetDeskDetailsPayload, setDeskDetails } from '../../intents/set-desk-details.ts';
import { submitModalIntent } from '../../modals/modal-submission.ts';

type Args = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

/** Builds the details form's submission handler. */
export function deskDetailsSubmission(
  deps: Pick<SlackDeps, 'deskFields' | 'settings' | 'stores' | 'worker'>,
) {
  return async ({ ack, body, view }: Args): Promise<void> => {
    const values = view.state.values as ViewStateValues;
    const pendingKey = decodeDeskDetailsMetadata(view.private_metadata);
    const pending = pendingKey ? await pendingDetailsOf(deps, pendingKey) : undefined;
    if (!pendingKey || !pending) {
      await ack({
        response_action: 'update',
        view: buildStatusModal('Ticket not filed', buildDeskDetailsGone().text),
      });
      return;
    }
    if (pendingActor(pending) !== body.user.id) {
      await ack({
        response_action: 'update',
        view: buildStatusModal('Not yours', buildDeskDetailsNotYours().text),
      });
      return;
    }
    if (isPendingTicket(pending)) {
      await addToTicket(deps, { ack, view, values, pendingKey, pending });
      return;
    }
    const form = readCreateForm(values);
    const localErrors = validateCreateForm(form);
    if (localErrors) {
      await ack({ response_action: 'errors', errors: localErrors });
      return;
    }
    const kept = pending.filing.ticket;
    const customFields = { ...kept?.custom_fields, ...form.customFields };
    const { description: _description, custom_fields: _fields, ...rest } = kept ?? { title: '' };
    const payload: CreateTicketPayload = {
      ...pending.filing,
      ticket: {
        ...rest,
        title: form.title,
        ...(form.description ? { description: form.description } : {}),
        ...(Object.keys(customFields).length > 0 ? { custom_fields: customFields } : {}),
      },
      viewId: view.id,
    };
    const { outcome, settled } = await submitModalIntent(
      deps,
      deskDetailsKey(pendingKey),
      createTicket,
      payload,
      form,
    );
    if (!outcome.enqueued && outcome.state === 'done') {
      const ticketId = (outcome.result as { ticketId?: string } | undefined)?.ticketId;
      await ack({
        response_action: 'update',
        view: buildStatusModal(
          'Already filed',
          `:ticket: This was already filed as *${safeMrkdwn(ticketId ?? 'a ticket', 40)}*.`,
        ),
      });
      return;
    }
    if (!outcome.enqueued && outcome.state === 'failed') {
      await ack({ response_action: 'errors', errors: { [CREATE_FIELDS.title.block]: AGAIN } });
      return;
    }
    if (settled?.state === 'done') {
      const result = settled.result as Partial<CreateTicketResult>;
      await ack(
        result.ticketId && result.insteadOf
          ? {
              response_action: 'update',
              view: buildStatusModal(
                'Ticket filed',
                buildFiledElsewhereText(result.ticketId, result.insteadOf),
              ),
            }
          : { response_action: 'clear' },
      );
      return;
    }
    if (settled?.state === 'failed') {
      await ack(refusalAnswer(deps, view, pending.deskId, settled.error, 'Ticket not filed'));
      return;
    }
    await ack({
      response_action: 'update',
      view: buildStatusModal(
        'Filing your ticket',
        ':hourglass_flowing_sand: Your ticket is saved and is being filed. It will appear where you asked for it as soon as the service desk confirms it; you can close this window.',
      ),
    });
  };
}

const AGAIN = 'This could not be sent. Change something and try again.';

type Ack = Args['ack'];
type AckAnswer = Parameters<Ack>[0];

// The platform's refusal: a 422 on the inputs it names, anything else in words.
function refusalAnswer(
  deps: Pick<SlackDeps, 'deskFields'>,
  view: Args['view'],
  deskId: string,
  error: unknown,
  title: string,
): AckAnswer {
  const fieldErrors =
    error instanceof ValidationError
      ? platformIssuesToBlocks(
          error.issues,
          inputBlockIds(view.blocks),
          (key) => deps.deskFields.peek(deskId)?.find((field) => field.key === key)?.name,
        )
      : undefined;
  if (fieldErrors) return { response_action: 'errors', errors: fieldErrors };
  return {
    response_action: 'update',
    view: buildStatusModal(title, describeFailure(error, 'details')),
  };
}

// A filed ticket's fields: one update, under the first filing's derived key.
async function addToTicket(
  deps: Pick<SlackDeps, 'deskFields' | 'settings' | 'worker'>,
  submitted: {
    ack: Ack;
    view: Args['view'];
    values: ViewStateValues;
    pendingKey: string;
    pending: PendingTicket;
  },
): Promise<void> {
  const { ack, view, values, pendingKey, pending } = submitted;
  const customFields = readDeskFields(values);
  const payload: SetDeskDetailsPayload = {
    ticketId: pending.ticketId,
    actorUserId: pending.actorUserId,
    customFields,
    ...(pending.channel ? { channel: pending.channel } : {}),
    ...(pending.threadTs ? { threadTs: pending.threadTs } : {}),
    viewId: view.id,
  };
  const { outcome, settled } = await submitModalIntent(
    deps,
    deskDetailsKey(pendingKey),
    setDeskDetails,
    payload,
    customFields,
  );
  const id = safeMrkdwn(pending.ticketId, 40);
  if (!outcome.enqueued && outcome.state === 'done') {
    await ack({
      response_action: 'update',
      view: buildStatusModal(
        'Already added',
        `:white_check_mark: *${id}* already has these details.`,
      ),
    });
    return;
  }
  if (!outcome.enqueued && outcome.state === 'failed') {
    const first = inputBlockIds(view.blocks).values().next().value;
    await ack(
      first
        ? { response_action: 'errors', errors: { [first]: AGAIN } }
        : { response_action: 'update', view: buildStatusModal('Details not added', AGAIN) },
    );
    return;
  }
  if (settled?.state === 'done') {
    await ack({ response_action: 'clear' });
    return;
  }
  if (settled?.state === 'failed') {
    await ack(refusalAnswer(deps, view, pending.deskId, settled.error, 'Details not added'));
    return;
  }
  await ack({
    response_action: 'update',
    view: buildStatusModal(
      'Adding the details',
      `:hourglass_flowing_sand: The details are saved and are being added to *${id}* as soon as the service desk answers; you can close this window.`,
    ),
  });
}

function inputBlockIds(blocks: readonly unknown[]): Set<string> {
  const ids = new Set<string>();
  for (const block of blocks as { type?: string; block_id?: string }[]) {
    if (block.type === 'input' && block.block_id) ids.add(block.block_id);
  }
  return ids;
}
