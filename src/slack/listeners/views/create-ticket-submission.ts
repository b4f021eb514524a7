/**
 * The create modal's submission. Local mistakes are shown on their field at once. Otherwise the
 * intent is made durable in the outbox (keyed by the modal, so a double click files once), and
 * the answer to Slack waits briefly for the ticket: a platform 422 can then still be shown on
 * the field its `loc` names; a slow or down platform gets a "filing…" view instead.
 */
import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';
import { ValidationError } from '../../../servicedesk/index.ts';
import {
  buildStatusModal,
  type CreateForm,
  platformIssuesToBlocks,
  readCreateForm,
  type ViewStateValues,
  validateCreateForm,
} from '../../builders/create-modal-builder.ts';
import { describeFailure } from '../../builders/failure-reason-builder.ts';
import { safeMrkdwn } from '../../builders/mrkdwn.ts';
import { buildFiledElsewhereText } from '../../builders/notice-builder.ts';
import { readRequestForm } from '../../builders/request-modal-builder.ts';
import type { SlackDeps } from '../../deps.ts';
import { CREATE_FIELDS } from '../../ids.ts';
import {
  type CreateTicketPayload,
  type CreateTicketResult,
  createTicket,
} from '../../intents/create-ticket.ts';
import { awaitsDetails, deskDetailsKey } from '../../intents/desk-details.ts';
import {
  type CreateModalMetadata,
  decodeModalMetadata,
  requesterCandidates,
} from '../../modals/modal-metadata.ts';
import { submitModalIntent } from '../../modals/modal-submission.ts';
import { messageKey } from '../../outbox/delivery-keys.ts';

type Args = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

/** Builds the create modal's submission handler. */
export function createTicketSubmission(
  deps: Pick<SlackDeps, 'catalog' | 'deskFields' | 'settings' | 'worker'>,
) {
  return async ({ ack, body, view }: Args): Promise<void> => {
    const values = view.state.values as ViewStateValues;
    // The request form files its catalog item (title, desk, catalog_item_id) as this form.
    const kept = deps.catalog.peek();
    const request = readRequestForm(values, kept?.kind === 'items' ? kept.items : undefined);
    if (request && 'errors' in request) {
      await ack({ response_action: 'errors', errors: request.errors });
      return;
    }
    const form = request ? request.form : readCreateForm(values);
    const localErrors = validateCreateForm(form);
    if (localErrors) {
      await ack({ response_action: 'errors', errors: localErrors });
      return;
    }
    const userId = body.user.id;
    const metadata = decodeModalMetadata(view.private_metadata);
    const payload = intentPayload(form, metadata, userId, view.id);
    // A message's ticket is keyed by the message, as a reaction on it is: one ticket per message.
    const baseKey = metadata.message
      ? messageKey(metadata.message.channel, metadata.message.ts)
      : `view:${view.id}`;
    const first = await submitModalIntent(deps, baseKey, createTicket, payload, form);
    // A 🎫 or request-channel filing of the message waits for its desk's fields: this form
    // gives them, under the key its details form files under, so the message is filed once.
    const waiting = !first.outcome.enqueued && awaitsDetails(first.outcome.result);
    const { outcome, settled } = waiting
      ? await submitModalIntent(deps, deskDetailsKey(baseKey), createTicket, payload, form)
      : first;
    if (!outcome.enqueued && outcome.state === 'done') {
      const ticketId =
        (outcome.result as { ticketId?: string } | undefined)?.ticketId ?? 'a ticket';
      await ack({
        response_action: 'update',
        view: buildStatusModal(
          'Already filed',
          `:ticket: This was already filed as *${safeMrkdwn(ticketId, 40)}*.`,
        ),
      });
      return;
    }
    if (!outcome.enqueued && outcome.state === 'failed') {
      await ack({
        response_action: 'errors',
        errors: { [CREATE_FIELDS.title.block]: truncatedReason(outcome.error) },
      });
      return;
    }
    if (settled?.state === 'done') {
      const where = placedElsewhere(settled.result as Partial<CreateTicketResult>, metadata);
      await ack(
        where
          ? { response_action: 'update', view: buildStatusModal('Ticket filed', where) }
          : { response_action: 'clear' },
      );
      return;
    }
    if (settled?.state === 'failed') {
      const fieldErrors =
        settled.error instanceof ValidationError
          ? platformIssuesToBlocks(settled.error.issues, inputBlockIds(view.blocks), (key) =>
              fieldName(deps, form.deskSlug, key),
            )
          : undefined;
      if (fieldErrors) {
        await ack({ response_action: 'errors', errors: fieldErrors });
        return;
      }
      await ack({
        response_action: 'update',
        view: buildStatusModal('Ticket not filed', describeFailure(settled.error, 'ticket')),
      });
      return;
    }
    const where = metadata.message
      ? 'in the message’s thread'
      : metadata.channel
        ? `in <#${metadata.channel}>`
        : 'in a direct message';
    await ack({
      response_action: 'update',
      view: buildStatusModal(
        'Filing your ticket',
        `:hourglass_flowing_sand: Your ticket is saved and is being filed. It will appear ${where} as soon as the service desk confirms it; you can close this window.`,
      ),
    });
  };
}

/**
 * What to tell the person when the card went somewhere other than where they acted (the app
 * is not in that channel, or they filed from the global shortcut); undefined when it is there.
 */
function placedElsewhere(
  result: Partial<CreateTicketResult>,
  metadata: CreateModalMetadata,
): string | undefined {
  if (!result.ticketId) return undefined;
  if (result.insteadOf) return buildFiledElsewhereText(result.ticketId, result.insteadOf);
  const actedIn = metadata.message?.channel ?? metadata.channel;
  if (actedIn && actedIn === result.channel) return undefined;
  return `:white_check_mark: *${safeMrkdwn(result.ticketId, 40)}* is filed. Its card and thread are in your direct messages with the app (*Service Desk → Messages*). You can close this window.`;
}

function inputBlockIds(blocks: readonly unknown[]): Set<string> {
  const ids = new Set<string>();
  for (const block of blocks as { type?: string; block_id?: string }[]) {
    if (block.type === 'input' && block.block_id) ids.add(block.block_id);
  }
  return ids;
}

// The name the desk gives a field, when its definitions are kept (no platform request here).
function fieldName(
  deps: Pick<SlackDeps, 'deskFields'>,
  deskSlug: string | undefined,
  key: string,
): string | undefined {
  if (!deskSlug) return undefined;
  return deps.deskFields.peek(deskSlug)?.find((field) => field.key === key)?.name;
}

function intentPayload(
  form: CreateForm,
  metadata: CreateModalMetadata,
  userId: string,
  viewId: string,
): CreateTicketPayload {
  const message = metadata.message;
  return {
    actorUserId: userId,
    requesterUserIds: requesterCandidates(metadata, userId),
    ticket: {
      title: form.title,
      ...(form.description ? { description: form.description } : {}),
      ...(form.deskSlug ? { desk_id: form.deskSlug } : {}),
      ...(form.priority ? { priority: form.priority as 'low' | 'medium' | 'high' | 'urgent' } : {}),
      ...customFields(form),
    },
    ...(message
      ? {
          fromMessage: {
            channel: message.channel,
            ts: message.ts,
            ...(message.threadTs ? { threadTs: message.threadTs } : {}),
          },
        }
      : {}),
    reply: message
      ? { kind: 'thread', channel: message.channel, threadTs: message.threadTs ?? message.ts }
      : { kind: 'card', channel: metadata.channel ?? userId },
    viewId,
  };
}

// The desk's fields, and the affected device under the app's own key.
function customFields(
  form: CreateForm,
): Pick<NonNullable<CreateTicketPayload['ticket']>, 'custom_fields'> {
  const fields = {
    ...form.customFields,
    ...(form.assetId ? { affected_asset_id: form.assetId } : {}),
  };
  return Object.keys(fields).length > 0 ? { custom_fields: fields } : {};
}

function truncatedReason(error: string | undefined): string {
  return `This could not be filed${error ? ` (${error.slice(0, 100)})` : ''}. Change something and try again.`;
}
