/**
 * Assign to me from an agent's Home queue: the assignment is the same intent as the triage
 * card's (the outbox, decided against the ticket as it is, so a double click assigns once), run
 * in this process at once; once it is made, the ticket moves to "Assigned to me" in the agent's
 * kept queue and the Home is published again, without reading the queue from the platform.
 */
import type { JsonValue } from '../../store/types.ts';
import type { SlackDeps } from '../deps.ts';
import { type UpdateTicketPayload, updateTicket } from '../intents/update-ticket.ts';
import { type HomeDeps, homeQueueAsk, publishHome } from './home-publisher.ts';

/** How long the click waits for the assignment before leaving it to the outbox. */
const ASSIGN_WAIT_MS = 5_000;

/** The click on a Home queue's Assign to me. */
export interface HomeClick {
  /** The click's delivery key (one per click: a double click is two, the second a no-op). */
  key: string;
  userId: string;
  ticketId: string;
}

/** Runs the assignment and shows it on the agent's Home; see the file comment. */
export async function assignFromHome(
  deps: HomeDeps & Pick<SlackDeps, 'worker'>,
  click: HomeClick,
  payload: UpdateTicketPayload,
): Promise<void> {
  const checked = updateTicket.schema.parse(payload) as JsonValue;
  const { settled } = await deps.worker.submit(
    click.key,
    updateTicket.kind,
    checked,
    ASSIGN_WAIT_MS,
  );
  // Refused or failed: the intent tells the agent; still running: the outbox finishes it, and
  // the Home shows it at the next read.
  if (settled?.state !== 'done') return;
  const email = (await deps.people.person(click.userId)).email;
  const ask = email ? await homeQueueAsk(deps, click.userId, email) : undefined;
  if (!ask) return;
  const took = await deps.reads.tookFromQueue(ask, click.ticketId);
  // Nothing moved (a second click, or no queue kept): the Home already says it, or its next
  // opening reads it.
  if (!took?.changed) return;
  await publishHome(deps, click.userId, { queue: took.queue });
}
