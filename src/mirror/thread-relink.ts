/**
 * A thread linked again after the store came back empty: its ticket goes back on the poll
 * schedule, and when the mirror has not read the ticket it resumes from what the platform holds
 * now. Its cursors, post claims and own-message marks went with the store, so reading from the
 * start would post the whole history into the thread again, the thread's own replies included.
 * The price: what the desk wrote while the app did not know the thread stays on the platform.
 */
import type { ServiceDeskClient, Ticket } from '../servicedesk/index.ts';
import type { MirrorStore, Now, PollSchedule, Thread, ThreadLinks } from '../store/types.ts';
import { type LookRules, lookRules, nextLook } from './look-policy.ts';
import { initialMirrorState } from './mirror-state.ts';
import { isSettled, RELAXED_PACE } from './poll-planner.ts';

// A person's reply waits behind the reads of a re-link, as behind the add itself.
const PERSON_WAITING = { priority: 'interactive' } as const;

/** The platform calls a re-link makes, at interactive priority (a person's reply waits). */
export type RelinkPlatform = Pick<
  ServiceDeskClient,
  'getTicket' | 'listMessages' | 'iterateMessages' | 'listActivity' | 'iterateActivity'
>;

/** What a re-link uses. */
export interface RelinkDeps {
  platform: RelinkPlatform;
  stores: { links: ThreadLinks; schedule: PollSchedule; mirror: MirrorStore };
  now: Now;
  /** The look policy's rules (default: the adaptive rule at the table's values). */
  rules?: LookRules;
}

/** Links the thread again and schedules its ticket; answers the ticket when it was read. */
export async function relinkThread(
  deps: RelinkDeps,
  ticketId: string,
  thread: Thread,
): Promise<Ticket | undefined> {
  // The record first: a poll between the link and the record would read from the start. A
  // record never polled holds only a write from Slack (a button), and no place to resume from.
  const state = await deps.stores.mirror.state(ticketId);
  const ticket =
    !state || state.lastPolledAt === 0 ? await resumeFromNow(deps, ticketId) : undefined;
  await deps.stores.links.link(ticketId, thread);
  // After the link: a poll of a ticket with no thread takes it off the schedule.
  const look = nextLook({
    event: { type: 'linked' },
    state: await deps.stores.mirror.state(ticketId),
    pace: RELAXED_PACE,
    now: deps.now(),
    rules: deps.rules ?? lookRules(),
  });
  if (look.do === 'look') await deps.stores.schedule.pollAt(ticketId, look.at);
  return ticket;
}

async function resumeFromNow(deps: RelinkDeps, ticketId: string): Promise<Ticket> {
  const ticket = await deps.platform.getTicket(ticketId, PERSON_WAITING);
  const messages = await countMessages(deps.platform, ticketId);
  const activity = await countActivity(deps.platform, ticketId);
  const changedAt = Date.parse(ticket.updated_at ?? ticket.created_at) || 0;
  const settled = isSettled(ticket.status);
  await deps.stores.mirror.saveState(ticketId, {
    ...initialMirrorState(),
    activityCursor: activity,
    messageCursor: messages,
    // Every message read counts as announced, so only a newer one makes the mirror read messages.
    messagesAnnounced: messages,
    lastActivityAt: changedAt,
    lastPolledAt: deps.now(),
    status: ticket.status,
    settledAt: settled ? changedAt : undefined,
    requesterEmail: ticket.requester_email ?? undefined,
  });
  return ticket;
}

// One item per page is enough to learn the total; a platform that leaves it out is counted.
async function countMessages(platform: RelinkPlatform, ticketId: string): Promise<number> {
  const first = await platform.listMessages(ticketId, { page: 1, page_size: 1 }, PERSON_WAITING);
  if (typeof first.total_count === 'number') return first.total_count;
  let count = 0;
  for await (const _ of platform.iterateMessages(ticketId, PERSON_WAITING)) count++;
  return count;
}

async function countActivity(platform: RelinkPlatform, ticketId: string): Promise<number> {
  const first = await platform.listActivity(ticketId, { offset: 0, limit: 1 }, PERSON_WAITING);
  if (typeof first.total_count === 'number') return first.total_count;
  let count = 0;
  for await (const _ of platform.iterateActivity(ticketId, PERSON_WAITING)) count++;
  return count;
}
