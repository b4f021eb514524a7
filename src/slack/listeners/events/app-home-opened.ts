/**
 * App Home: when a person opens the app's Home tab, it is published with their open tickets, or
 * an agent's queue, and a "New ticket" button (`posting/home-publisher.ts`). The event is
 * answered at once and the list is read afterwards; a person flicking between tabs is served
 * from the last publish for a few seconds, because each refresh costs platform requests from the
 * shared budget.
 */
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { SlackDeps } from '../../deps.ts';
import { type HomeOptions, publishHome } from '../../posting/home-publisher.ts';

/** What this file's listeners use of the app's parts. */
type ListenerDeps = Pick<
  SlackDeps,
  | 'client'
  | 'desks'
  | 'logger'
  | 'people'
  | 'reads'
  | 'settings'
  | 'statuses'
  | 'tasks'
  | 'triageMembers'
>;

type Args = SlackEventMiddlewareArgs<'app_home_opened'> & AllMiddlewareArgs;

/** Options of the App Home handler. */
export interface AppHomeOptions extends Pick<HomeOptions, 'sleep' | 'holdWaitMaxMs'> {
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
  const publishing: HomeOptions = {
    ...(options.sleep ? { sleep: options.sleep } : {}),
    ...(options.holdWaitMaxMs !== undefined ? { holdWaitMaxMs: options.holdWaitMaxMs } : {}),
  };
  return async ({ event, context }: Args): Promise<void> => {
    if (event.tab !== 'home') return;
    const userId = event.user;
    // A Home is one per workspace: a person in two workspaces of an organization opening it in
    // each gets both published.
    const key = `${context.teamId ?? context.enterpriseId ?? ''}:${userId}`;
    const at = now();
    const last = lastPublished.get(key);
    if (last !== undefined && at - last < minRefreshMs) return;
    lastPublished.delete(key);
    lastPublished.set(key, at);
    if (lastPublished.size > MAX_TRACKED) {
      const oldest = lastPublished.keys().next().value;
      if (oldest !== undefined) lastPublished.delete(oldest);
    }
    deps.tasks.run('publish-app-home', () => publishHome(deps, userId, publishing), {
      user: userId,
    });
  };
}
