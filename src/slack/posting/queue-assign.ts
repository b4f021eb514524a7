/**
 * Assign to me from an agent's queue (their Home, or `/ticket queue`'s private answer): the
 * assignment is the same intent as the triage card's (the outbox, decided against the ticket as
 * it is, so a double click assigns once), run in this process at once. The intent moves the
 * ticket to "Assigned to me" in the agent's kept queue and publishes their Home from it, however
 * the ticket was taken; a private answer is replaced here, without reading the queue again.
 */
import type { JsonValue } from '../../store/types.ts';
import { buildQueueMessage } from '../builders/agent-queue-builder.ts';
import { clockInputsAt } from '../cards/service-clocks.ts';
import type { SlackDeps } from '../deps.ts';
import { type UpdateTicketPayload, updateTicket } from '../intents/update-ticket.ts';
import { type HomeDeps, takenIntoQueue } from './home-publisher.ts';
import { postToResponseUrl } from './private-notice.ts';

/** How long the click waits for the assignment before leaving it to the outbox. */
const ASSIGN_WAIT_MS = 5_000;

/** A click on a queue's Assign to me. */
export interface QueueClick {
  /** The click's delivery key (one per click: a double click is two, the second a no-op). */
  key: string;
  userId: string;
  ticketId: string;
  /** Where the queue is shown: the Home, or a private answer replaced through its URL. */
  place: { kind: 'home' } | { kind: 'message'; responseUrl: string };
}

/** Runs the assignment and shows it in the agent's queue; see the file comment. */
export async function assignFromQueue(
  deps: HomeDeps & Pick<SlackDeps, 'worker'>,
  click: QueueClick,
): Promise<void> {
  const payload: UpdateTicketPayload = {
    ticketId: click.ticketId,
    actorUserId: click.userId,
    request: { kind: 'assign_to_me' },
  };
  const checked = updateTicket.schema.parse(payload) as JsonValue;
  const { settled } = await deps.worker.submit(
    click.key,
    updateTicket.kind,
    checked,
    ASSIGN_WAIT_MS,
  );
  // Refused or failed: the intent tells the agent; still running: the outbox finishes it, and
  // the queue shows it at its next read.
  if (settled?.state !== 'done') return;
  // The intent moved the ticket into "Assigned to me" of the kept queue and published the Home
  // from it; a private answer is replaced from the same queue, with no read.
  if (click.place.kind === 'home') return;
  const queue = (await takenIntoQueue(deps, click.userId, click.ticketId))?.queue;
  if (!queue) return;
  const message = buildQueueMessage(queue, {
    dashboardUrl: deps.settings.dashboardUrl,
    clocks: clockInputsAt(deps.settings, deps.reads.now()),
  });
  // Best effort: the URL lasts 30 minutes and five uses; the assignment is made either way and
  // the triage card and thread say so.
  await postToResponseUrl(click.place.responseUrl, {
    response_type: 'ephemeral',
    replace_original: true,
    ...message,
  }).catch((error: unknown) =>
    deps.logger.warn({ err: error, ticket_id: click.ticketId }, 'queue not replaced'),
  );
}
