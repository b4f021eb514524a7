/**
 * An agent's queue: the open tickets assigned to them, and the open unassigned tickets on their
 * desks. Read with the platform's `assignee_email` and `status` filters ("More List tickets
 * filters" in the API contract) and checked ticket by ticket either way: a platform without the
 * filters answers with every ticket, which is then sorted here from one bounded scan.
 *
 * Only what can be shown is read: the assigned tickets all (up to `ASSIGNED_READ_MAX`, since
 * they are ordered by their clocks, which the platform cannot sort by), the unassigned ones a
 * page of the size the caller can show (the platform lists oldest first, the ones that waited
 * longest). Reading is the caller's to pay and keep (`PeopleReads.agentQueue`).
 */
import { z } from 'zod';
import {
  isServiceDeskError,
  type ServiceDeskClient,
  TICKET_STATUSES,
  type Ticket,
  ticketSchema,
} from '../../servicedesk/index.ts';
import { DONE_STATUSES } from '../builders/ticket-labels.ts';
import type {
  AgentQueue,
  Desks,
  Directory,
  QueueAsk,
  QueueScope,
  Reads,
  TriageMembers,
} from '../deps.ts';

/** An agent's queue, what to read of it, and for which desks. */
export type { AgentQueue, QueueAsk, QueueScope };

/** The statuses of an open ticket, as the `status` filter is sent. */
export const OPEN_STATUSES: readonly string[] = TICKET_STATUSES.filter(
  (status) => !DONE_STATUSES.has(status),
);

/** Most assigned tickets read (their order is by clock, so all of them are read up to this). */
export const ASSIGNED_READ_MAX = 300;
/** Most tickets looked at when the platform ignores the filters (one scan for both lists). */
export const UNFILTERED_SCAN_MAX = 500;
/** Most pages of unassigned tickets read for an agent of some desks only. */
const UNASSIGNED_PAGES_MAX = 3;
/** The platform's largest page. */
const PAGE_MAX = 100;

/** The schema of a kept `AgentQueue`. */
export const agentQueueSchema = z.object({
  assigned: z.array(ticketSchema),
  assignedMore: z.boolean(),
  unassigned: z.array(ticketSchema),
  unassignedTotal: z.number().int().nullable(),
});

/** The scope of an agent of every desk. */
export const ALL_DESKS: QueueScope = { key: '*', covers: () => true, allDesks: true };

type Lister = Pick<ServiceDeskClient, 'listTickets'>;

const isOpen = (ticket: Ticket) => !DONE_STATUSES.has(ticket.status);

/** Reads an agent's queue; see the file comment. */
export async function readAgentQueue(platform: Lister, ask: QueueAsk): Promise<AgentQueue> {
  const email = ask.email.toLowerCase();
  const assignee = (ticket: Ticket) => ticket.assignee_email?.toLowerCase() ?? '';
  const mine = (ticket: Ticket) => isOpen(ticket) && assignee(ticket) === email;
  const waiting = (ticket: Ticket) =>
    isOpen(ticket) && assignee(ticket) === '' && ask.scope.covers(ticket);

  const assigned: Ticket[] = [];
  const seenUnassigned: Ticket[] = [];
  let filtered = true;
  let scanned = 0;
  let complete = false;
  for (let page = 1; ; page++) {
    const answer = await platform.listTickets(
      { assignee_email: email, status: OPEN_STATUSES, page, page_size: PAGE_MAX },
      { priority: 'interactive' },
    );
    for (const ticket of answer.items) {
      if (mine(ticket)) assigned.push(ticket);
      else {
        // Not what was asked for: the platform ignores the filters, and lists everything.
        filtered = false;
        if (waiting(ticket)) seenUnassigned.push(ticket);
      }
    }
    scanned += answer.items.length;
    complete = isLast(answer, PAGE_MAX, scanned);
    const bound = filtered ? ASSIGNED_READ_MAX : UNFILTERED_SCAN_MAX;
    if (complete || scanned >= bound || assigned.length >= ASSIGNED_READ_MAX) break;
  }
  const assignedMore = !complete && assigned.length >= ASSIGNED_READ_MAX;
  const kept = assigned.slice(0, ASSIGNED_READ_MAX);
  const room = Math.max(0, ask.unassignedRoom(kept.length));
  if (!filtered) {
    // Both lists came from one scan of everything: nothing more is read.
    return {
      assigned: kept,
      assignedMore: assignedMore || !complete,
      unassigned: seenUnassigned.slice(0, room),
      unassignedTotal: complete ? seenUnassigned.length : null,
    };
  }
  if (room === 0) {
    return { assigned: kept, assignedMore, unassigned: [], unassignedTotal: null };
  }
  return { assigned: kept, assignedMore, ...(await readUnassigned(platform, ask, room, waiting)) };
}

/** The first `room` unassigned tickets on the agent's desks, and how many there are. */
async function readUnassigned(
  platform: Lister,
  ask: QueueAsk,
  room: number,
  waiting: (ticket: Ticket) => boolean,
): Promise<Pick<AgentQueue, 'unassigned' | 'unassignedTotal'>> {
  // Every desk's: one page of exactly what fits, its total the count. Some desks': the desk
  // filter cannot say "these desks and their subdesks and the catch-all's", so full pages are
  // read and sorted here, a few at most.
  const pageSize = ask.scope.allDesks ? Math.min(room, PAGE_MAX) : PAGE_MAX;
  const found: Ticket[] = [];
  let received = 0;
  let allMatched = true;
  for (let page = 1; page <= UNASSIGNED_PAGES_MAX; page++) {
    const answer = await platform.listTickets(
      { assignee_email: '', status: OPEN_STATUSES, page, page_size: pageSize },
      { priority: 'interactive' },
    );
    received += answer.items.length;
    for (const ticket of answer.items) {
      if (waiting(ticket)) found.push(ticket);
      else allMatched = false;
    }
    const last = isLast(answer, pageSize, received);
    if (last) return { unassigned: found.slice(0, room), unassignedTotal: found.length };
    if (found.length >= room) {
      // The platform's count is the agent's only when every ticket listed was theirs to see.
      const total = allMatched && ask.scope.allDesks ? answer.total_count : null;
      return { unassigned: found.slice(0, room), unassignedTotal: total };
    }
  }
  return { unassigned: found.slice(0, room), unassignedTotal: null };
}

function isLast(
  answer: { items: unknown[]; total_count: number | null },
  size: number,
  received: number,
) {
  if (answer.items.length < size) return true;
  return answer.total_count !== null && received >= answer.total_count;
}

/**
 * The queue after the agent took a ticket from it (Assign to me): shown at once, before the
 * queue is read again.
 */
export function afterTaking(
  queue: AgentQueue,
  ticketId: string,
  email: string,
  taken?: Ticket,
): AgentQueue {
  if (queue.assigned.some((ticket) => ticket.id === ticketId)) return queue;
  const listed = queue.unassigned.find((ticket) => ticket.id === ticketId);
  // A ticket newer than the kept queue is listed from the assignment's own answer, if open.
  const shown = listed ?? (taken && OPEN_STATUSES.includes(taken.status) ? taken : undefined);
  if (!shown) return queue;
  return {
    ...queue,
    assigned: [...queue.assigned, { ...shown, assignee_email: email }],
    unassigned: queue.unassigned.filter((ticket) => ticket.id !== ticketId),
    unassignedTotal:
      queue.unassignedTotal === null || !listed ? queue.unassignedTotal : queue.unassignedTotal - 1,
  };
}

/**
 * What to read of the person's queue, or undefined when they are no agent: every desk for
 * AGENT_EMAILS and the agents' group; else the desks whose private triage channels they are in,
 * with their subdesks (the desks are read for that, kept for everyone, when no copy is kept).
 */
export async function queueAskFor(
  deps: {
    people: Pick<Directory, 'isAgent'>;
    triageMembers: Pick<TriageMembers, 'deskChannels'>;
    desks?: Pick<Desks, 'peek' | 'list'>;
    reads?: Pick<Reads, 'payer'>;
  },
  userId: string,
  email: string,
  unassignedRoom: (assignedCount: number) => number,
): Promise<QueueAsk | undefined> {
  if (await deps.people.isAgent(userId)) return { email, scope: ALL_DESKS, unassignedRoom };
  let desks = await deps.triageMembers.deskChannels?.(userId);
  if (!desks || desks.channels.size === 0) return undefined;
  if (deps.desks && !deps.desks.peek()) {
    try {
      await deps.desks.list(deps.reads?.payer(userId, 'home'));
      desks = (await deps.triageMembers.deskChannels?.(userId)) ?? desks;
    } catch (error) {
      // Without the desks, a subdesk's tickets count only where they route by their own slug.
      if (!isServiceDeskError(error)) throw error;
    }
  }
  const { channels, routedTo } = desks;
  const scope: QueueScope = {
    key: [...channels].sort().join(','),
    covers: (ticket) => {
      const channel = routedTo(ticket.desk_id);
      return channel !== undefined && channels.has(channel);
    },
    allDesks: false,
  };
  return { email, scope, unassignedRoom };
}
