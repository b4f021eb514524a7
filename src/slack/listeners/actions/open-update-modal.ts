/**
 * The card's "Update" button (agents only): opens the update modal at once, while the trigger
 * id is valid, and fills it in with the ticket as it is now. A non-agent's click, crafted or
 * not, is refused privately and opens nothing. When the platform cannot be asked now, the form
 * says so and when to try again.
 */
import type { BlockAction } from '@slack/bolt';
import { isServiceDeskError, NotFoundError, type Ticket } from '../../../servicedesk/index.ts';
import { busyLine } from '../../builders/busy-builder.ts';
import { cardRefFromAction } from '../../builders/card-ref.ts';
import { buildStatusModal } from '../../builders/create-modal-builder.ts';
import { buildRefusal } from '../../builders/refusal-builder.ts';
import {
  buildUpdateModal,
  buildUpdateModalLoading,
  encodeUpdateMetadata,
  type UpdateModalMetadata,
} from '../../builders/update-modal-builder.ts';
import type { SlackDeps } from '../../deps.ts';
import { openModalOrTell } from '../../modals/modal-opening.ts';
import {
  type ButtonArgs,
  type ButtonDeps,
  clickedTicketId,
  clickOf,
  refuseClicker,
} from './button-click.ts';

/** What the Update button uses: a button's parts, and the background tasks that fill the form. */
type ListenerDeps = ButtonDeps & Pick<SlackDeps, 'tasks'>;

/** Builds the handler of the card's "Update" button. */
export function openUpdateModal(deps: ListenerDeps) {
  return async ({ ack, body }: ButtonArgs): Promise<void> => {
    await ack();
    const ticketId = clickedTicketId(body);
    if (!ticketId) return;
    if (!(await deps.people.isAgent(body.user.id, { ticketId, channel: body.channel?.id }))) {
      await refuseClicker(deps, body, ticketId, 'agents_only');
      return;
    }
    const card = cardRefFromAction(body, clickOf(body).blockId);
    const metadata: UpdateModalMetadata = { ticketId, ...(card ? { card } : {}) };
    const opened = await openModalOrTell(
      deps,
      {
        trigger_id: body.trigger_id,
        view: buildUpdateModalLoading(ticketId, encodeUpdateMetadata(metadata)),
      },
      {
        userId: body.user.id,
        responseUrl: body.response_url,
        channel: body.channel?.id,
        threadTs: body.message?.thread_ts,
      },
    );
    const viewId = opened?.view?.id;
    if (!viewId) return;
    deps.tasks.run('fill-update-modal', () => fillUpdateModal(deps, body, viewId, metadata), {
      user: body.user.id,
      ticket_id: ticketId,
    });
  };
}

async function fillUpdateModal(
  deps: ListenerDeps,
  body: BlockAction,
  viewId: string,
  metadata: UpdateModalMetadata,
): Promise<void> {
  let ticket: Ticket;
  try {
    const read = await deps.reads.ticket(body.user.id, metadata.ticketId, 'update', {
      fresh: true,
    });
    if (read.kind === 'busy') {
      const text = busyLine(read.reason, read.retryAt - deps.reads.now());
      await deps.client.views.update({ view_id: viewId, view: buildStatusModal('Update', text) });
      return;
    }
    ticket = read.value;
  } catch (error) {
    // Anything but the platform's own failure is a bug, for app.error.
    if (!isServiceDeskError(error)) throw error;
    const text =
      error instanceof NotFoundError
        ? buildRefusal('not_visible', metadata.ticketId).text
        : ':hourglass_flowing_sand: The service desk is not answering right now. Please try again in a minute.';
    await deps.client.views.update({ view_id: viewId, view: buildStatusModal('Update', text) });
    return;
  }
  deps.statuses.remember(ticket);
  if (ticket.status === 'closed') {
    await deps.client.views.update({
      view_id: viewId,
      view: buildStatusModal('Update', buildRefusal('closed', ticket.id).text),
    });
    return;
  }
  const assigneeUserId = await slackUserByEmail(deps, ticket.assignee_email);
  const filled: UpdateModalMetadata = {
    ...metadata,
    initial: {
      status: ticket.status,
      priority: ticket.priority,
      ...(assigneeUserId ? { assigneeUserId } : {}),
    },
  };
  await deps.client.views
    .update({
      view_id: viewId,
      view: buildUpdateModal({
        ticket,
        assigneeUserId,
        privateMetadata: encodeUpdateMetadata(filled),
      }),
    })
    .catch((error: unknown) => {
      // Closed before the ticket arrived: nothing left to fill in.
      const code = (error as { data?: { error?: string } }).data?.error;
      if (code !== 'not_found') throw error;
      deps.logger.debug({ user: body.user.id }, 'update modal closed before it was filled');
    });
}

async function slackUserByEmail(
  deps: ListenerDeps,
  email: string | null | undefined,
): Promise<string | undefined> {
  if (!email) return undefined;
  // Someone without a Slack account (or hidden from the app) simply shows as "not in Slack".
  return deps.client.users
    .lookupByEmail({ email })
    .then((found) => found.user?.id)
    .catch(() => undefined);
}
