/**
 * The details form's submission: files the kept filing (a 🎫, DM or request-channel message the
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
import { deskDetailsKey, pendingDetailsOf } from '../../intents/desk-details.ts';
import { submitModalIntent } from '../../modals/modal-submission.ts';

type Args = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

/** Builds the details form's submission handler. */
export function deskDetailsSubmission(
  deps: Pick<SlackDeps, 'deskFields' | 'settings' | 'stores' | 'worker'>,
) {
  return async ({ ack, body, view }: Args): Promise<void> => {
    const values = view.state.values as ViewStateValues;
    const form = readCreateForm(values);
    const localErrors = validateCreateForm(form);
    if (localErrors) {
      await ack({ response_action: 'errors', errors: localErrors });
      return;
    }
    const pendingKey = decodeDeskDetailsMetadata(view.private_metadata);
    const pending = pendingKey ? await pendingDetailsOf(deps, pendingKey) : undefined;
    if (!pendingKey || !pending) {
      await ack({
        response_action: 'update',
        view: buildStatusModal('Ticket not filed', buildDeskDetailsGone().text),
      });
      return;
    }
    if (pending.filing.actorUserId !== body.user.id) {
      await ack({
        response_action: 'update',
        view: buildStatusModal('Ticket not filed', buildDeskDetailsNotYours().text),
      });
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
      await ack({
        response_action: 'errors',
        errors: {
          [CREATE_FIELDS.title.block]: 'This could not be filed. Change something and try again.',
        },
      });
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
      const fieldErrors =
        settled.error instanceof ValidationError
          ? platformIssuesToBlocks(
              settled.error.issues,
              inputBlockIds(view.blocks),
              (key) =>
                deps.deskFields.peek(pending.deskId)?.find((field) => field.key === key)?.name,
            )
          : undefined;
      await ack(
        fieldErrors
          ? { response_action: 'errors', errors: fieldErrors }
          : {
              response_action: 'update',
              view: buildStatusModal('Ticket not filed', describeFailure(settled.error, 'ticket')),
            },
      );
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

function inputBlockIds(blocks: readonly unknown[]): Set<string> {
  const ids = new Set<string>();
  for (const block of blocks as { type?: string; block_id?: string }[]) {
    if (block.type === 'input' && block.block_id) ids.add(block.block_id);
  }
  return ids;
}
