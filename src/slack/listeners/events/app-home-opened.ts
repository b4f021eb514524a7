/**
 * App Home: when a person opens the app's Home tab, it is published with their open tickets
 * and a "New ticket" button. The event is answered at once and the list is read afterwards;
 * a person flicking between tabs is served from the last publish for a few seconds, because
 * each refresh costs platform requests from the shared budget.
 */
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { isServiceDeskError, type Ticket } from '../../../servicedesk/index.ts';
import { type AppHomeState, buildAppHome } from '../../builders/app-home-builder.ts';
import { DONE_STATUSES } from '../../builders/ticket-labels.ts';
import type { SlackDeps } from '../../deps.ts';

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
export function appHomeOpened(deps: SlackDeps, options: AppHomeOptions = {}) {
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
export async function publishAppHome(deps: SlackDeps, userId: string): Promise<void> {
  const state = await homeState(deps, userId);
  await deps.client.views.publish({
    user_id: userId,
    view: buildAppHome(state, deps.settings.dashboardUrl),
  });
}

async function homeState(deps: SlackDeps, userId: string): Promise<AppHomeState> {
  const email = (await deps.people.person(userId)).email;
  if (!email) return { kind: 'no_email' };
  const open: Ticket[] = [];
  try {
    for await (const ticket of deps.serviceDesk.iterateTickets(
      { requester_email: email },
      { maxItems: 500, priority: 'interactive' },
    )) {
      deps.statuses.remember(ticket);
      if (!DONE_STATUSES.has(ticket.status)) open.push(ticket);
    }
  } catch (error) {
    if (!isServiceDeskError(error)) throw error;
    deps.logger.warn({ err: error, user: userId }, 'App Home could not read the tickets');
    return { kind: 'unavailable' };
  }
  // The platform lists oldest first; the newest matter most.
  return { kind: 'tickets', tickets: open.reverse() };
}
