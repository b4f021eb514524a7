/**
 * Publishes a person's App Home: a requester's open tickets, or an agent's queue (the tickets
 * assigned to them and the unassigned ones on their desks). Read within the person's fair share;
 * when the platform cannot be asked, the list last read with its age, or when to look again.
 *
 * Slack may refuse the publish: a 429 holds views.publish for its Retry-After (every replica
 * sees the hold), so the Home is published again once it passes, when that is soon; a longer
 * hold, or Slack failing again, is left to the caller's error path (logged), and the person's
 * next visit publishes it. The interactive client has already tried a 5xx once more.
 */
import type { WebClient } from '@slack/web-api';
import { isServiceDeskError, type Ticket } from '../../servicedesk/index.ts';
import { StoreError } from '../../store/index.ts';
import { slackRetryAt } from '../app/slack-clients.ts';
import { homeUnassignedRoom } from '../builders/agent-queue-builder.ts';
import { type AppHomeState, buildAppHome, type HomeAsOf } from '../builders/app-home-builder.ts';
import { clockInputsAt } from '../cards/service-clocks.ts';
import type { AgentQueue, PersonRead, QueueAsk, SlackDeps } from '../deps.ts';
import { isSlackFailure } from '../errors.ts';
import { queueAskFor } from '../people/agent-queue.ts';

/** What publishing a Home uses of the app's parts. */
export type HomeDeps = Pick<
  SlackDeps,
  'desks' | 'logger' | 'people' | 'reads' | 'settings' | 'statuses' | 'triageMembers'
> & { client: Pick<WebClient, 'views'> };

/** Options of a publish. */
export interface HomeOptions {
  /** Longest Retry-After waited out to publish again (default 30 s); longer ones are errors. */
  holdWaitMaxMs?: number;
  /** Waits (tests pass one that does not sleep). */
  sleep?: (ms: number) => Promise<void>;
  /** The agent's queue to show as it is (after Assign to me), instead of reading it. */
  queue?: AgentQueue;
}

const HOLD_WAIT_MAX_MS = 30_000;

/** Reads what the person's Home shows and publishes it; see the file comment. */
export async function publishHome(
  deps: HomeDeps,
  userId: string,
  options: HomeOptions = {},
): Promise<void> {
  const state = options.queue
    ? ({
        kind: 'queue',
        queue: options.queue,
        clocks: clockInputsAt(deps.settings, deps.reads.now()),
      } as const)
    : await homeState(deps, userId);
  const publish = () =>
    deps.client.views.publish({
      user_id: userId,
      view: buildAppHome(state, deps.settings.dashboardUrl),
    });
  try {
    await publish();
  } catch (error) {
    const now = deps.reads.now();
    const retryAt = slackRetryAt(error, now);
    const waitMs = retryAt === undefined ? undefined : retryAt - now;
    if (waitMs === undefined || waitMs > (options.holdWaitMaxMs ?? HOLD_WAIT_MAX_MS)) throw error;
    deps.logger.info({ user: userId, wait_ms: waitMs }, 'App Home held by Slack; publishing after');
    await (options.sleep ?? defaultSleep)(waitMs);
    await publish();
  }
}

/** What the person's Home shows below its buttons. */
async function homeState(deps: HomeDeps, userId: string): Promise<AppHomeState> {
  const email = (await deps.people.person(userId)).email;
  if (!email) return { kind: 'no_email' };
  const ask = await queueAskFor(deps, userId, email, homeUnassignedRoom);
  try {
    if (ask) {
      const read = await deps.reads.agentQueue(userId, ask, 'home');
      return listState(deps, read, (queue, asOf) => ({
        kind: 'queue',
        queue,
        clocks: clockInputsAt(deps.settings, deps.reads.now()),
        ...(asOf && { asOf }),
      }));
    }
    const read = await deps.reads.openRequested(userId, email, 'home', (t) =>
      deps.statuses.remember(t),
    );
    return listState(deps, read, (tickets, asOf) => ({
      kind: 'tickets',
      tickets,
      ...(asOf && { asOf }),
    }));
  } catch (error) {
    if (!isServiceDeskError(error)) throw error;
    deps.logger.warn({ err: error, user: userId }, 'App Home could not read the tickets');
    return { kind: 'unavailable' };
  }
}

/**
 * What a read of the person's list shows: the list, else the list as last read with its age,
 * else that the platform cannot be asked now.
 */
function listState<T>(
  deps: HomeDeps,
  read: PersonRead<T>,
  shown: (value: T, asOf?: HomeAsOf) => AppHomeState,
): AppHomeState {
  if (read.kind === 'read') return shown(read.value);
  const now = deps.reads.now();
  const retryInMs = read.retryAt - now;
  if (!read.kept) return { kind: 'busy', reason: read.reason, retryInMs };
  deps.reads.answeredFromKnown('home');
  return shown(read.kept.value, { ageMs: now - read.kept.keptAt, reason: read.reason, retryInMs });
}

/** The queue ask of the person for their Home (re-exported for the Assign to me listener). */
export function homeQueueAsk(
  deps: Pick<HomeDeps, 'desks' | 'people' | 'reads' | 'triageMembers'>,
  userId: string,
  email: string,
): Promise<QueueAsk | undefined> {
  return queueAskFor(deps, userId, email, homeUnassignedRoom);
}

/**
 * Moves a ticket an agent just took into "Assigned to me" of their kept queue, however they took
 * it (a triage card's button, 👀, their queue), so their Home shows it at once rather than after
 * the queue's minute; nothing when no queue is kept. The queue as it now is, when kept.
 */
export async function takenIntoQueue(
  deps: Pick<HomeDeps, 'desks' | 'logger' | 'people' | 'reads' | 'triageMembers'>,
  userId: string,
  ticketId: string,
  taken?: Ticket,
): Promise<{ queue: AgentQueue; changed: boolean } | undefined> {
  try {
    const email = (await deps.people.person(userId)).email;
    const ask = email ? await homeQueueAsk(deps, userId, email) : undefined;
    return ask ? await deps.reads.tookFromQueue(ask, ticketId, taken) : undefined;
  } catch (error) {
    // The assignment is made: a kept queue that cannot follow is read again within the minute.
    if (!(error instanceof StoreError)) throw error;
    deps.logger.warn({ err: error, ticket_id: ticketId }, 'the kept queue did not follow');
    return undefined;
  }
}

/**
 * An agent's Home follows a ticket they just took: moved in their kept queue and, when that
 * changed it (they have a Home of late), published again from it, with no read. Best effort:
 * the assignment is made, and a Slack that refuses the publish only leaves the Home as it was.
 */
export async function homeFollowsTaking(
  deps: HomeDeps,
  userId: string,
  taken: Ticket,
): Promise<void> {
  const moved = await takenIntoQueue(deps, userId, taken.id, taken);
  if (!moved?.changed) return;
  try {
    await publishHome(deps, userId, { queue: moved.queue, holdWaitMaxMs: 0 });
  } catch (error) {
    if (!isSlackFailure(error)) throw error;
    deps.logger.warn(
      { err: error, ticket_id: taken.id },
      'App Home not published after Assign to me',
    );
  }
}

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
