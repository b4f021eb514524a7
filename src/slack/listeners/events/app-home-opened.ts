/**
 * App Home: when a person opens the app's Home tab, it is published with their open tickets
 * and a "New ticket" button. The event is answered at once and the list is read afterwards;
 * a person flicking between tabs is served from the last publish for a few seconds, because
 * each refresh costs platform requests from the shared budget. A refresh is read within the
 * person's fair share; when the platform cannot be asked, Home shows the list last read with its
 * age, or says when to look again.
 */
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { isServiceDeskError } from '../../../servicedesk/index.ts';
import { type AppHomeState, buildAppHome } from '../../builders/app-home-builder.ts';
import type { SlackDeps } from '../../deps.ts';

/** What this file's listeners use of the app's parts. */
type ListenerDeps = Pick<
  SlackDeps,
  'client' | 'logger' | 'people' | 'reads' | 'settings' | 'statuses' | 'tasks'
>;

type Args = SlackEventMiddlewareArgs<'app_home_opened'> & AllMiddlewareArgs;

/** Options of the App Home handler. */
export interface AppHomeOptions {
  /** Opening Home again within this long does not read the tickets again. */
  minRefreshMs?: number;
  now?: () => number;
}

// Bounds the per-person refresh times kept in memory.
const MAX_TRACKED = 10_000;

/** Builds the app_home_opened handler. */
export function appHomeOpened(deps: ListenerDeps, options: AppHomeOptions = {}) {
  const minRefreshMs = options.minRefreshMs ?? 10_000;
  const now = options.now ?? Date.now;
  const lastPublished = new Map<string, number>();
  return async ({ event }: Args): Promise<void> => {
    if (event.tab !== 'home') return;
    const userId = event.user;
    const at = now();
    const last = lastPublished.get(userId);
    if (last !== undefined && at - last < minRefreshMs) return;
    lastPublished.delete(userId);
    lastPublished.set(userId, at);
    if (lastPublished.size > MAX_TRACKED) {
      const oldest = lastPublished.keys().next().value;
      if (oldest !== undefined) lastPublished.delete(oldest);
    }
    deps.tasks.run('publish-app-home', () => publishAppHome(deps, userId), { user: userId });
  };
}

/** Reads the person's open tickets and publishes their Home. */
export async function publishAppHome(deps: ListenerDeps, userId: string): Promise<void> {
  const state = await homeState(deps, userId);
  await deps.client.views.publish({
    user_id: userId,
    view: buildAppHome(state, deps.settings.dashboardUrl),
  });
}

async function homeState(deps: ListenerDeps, userId: string): Promise<AppHomeState> {
  const email = (await deps.people.person(userId)).email;
  if (!email) return { kind: 'no_email' };
  let read: Awaited<ReturnType<SlackDeps['reads']['openRequested']>>;
  try {
    read = await deps.reads.openRequested(userId, email, 'home', (t) => deps.statuses.remember(t));
  } catch (error) {
    if (!isServiceDeskError(error)) throw error;
    deps.logger.warn({ err: error, user: userId }, 'App Home could not read the tickets');
    return { kind: 'unavailable' };
  }
  if (read.kind === 'read') return { kind: 'tickets', tickets: read.value };
  const now = deps.reads.now();
  const retryInMs = read.retryAt - now;
  if (!read.kept) return { kind: 'busy', reason: read.reason, retryInMs };
  deps.reads.answeredFromKnown('home');
  return {
    kind: 'tickets',
    tickets: read.kept.value,
    asOf: { ageMs: now - read.kept.keptAt, reason: read.reason, retryInMs },
  };
}
