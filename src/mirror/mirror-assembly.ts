/**
 * The mirror's parts put together as the app runs them: the worker and the change feed on the
 * same stores, hints, planner and pacer. The runtime builds the running app with it, and the
 * mirror benchmark builds the same parts on its simulated clock, so both run one wiring.
 */
import type { Stores } from '../store/types.ts';
import type { BudgetPacer } from './budget-pacer.ts';
import { ChangeFeed, type ChangeFeedMode, type ChangeFeedOptions } from './change-feed.ts';
import { type MirrorLogger, MirrorWorker, type MirrorWorkerOptions } from './mirror-worker.ts';
import type { PollPlanner } from './poll-planner.ts';
import { TicketHints } from './ticket-hints.ts';
import type { ChangeFeedPlatform, MirrorPlatform, MirrorPoster } from './types.ts';

/** What the mirror is assembled from; the pace and the clock are the caller's. */
export interface MirrorAssemblyOptions {
  platform: MirrorPlatform & ChangeFeedPlatform;
  stores: Stores;
  poster: MirrorPoster;
  logger: MirrorLogger & { child?(bindings: object): MirrorLogger };
  planner?: PollPlanner;
  pacer?: BudgetPacer;
  /** The hints the feed hands changes to (the webhook route's, when there is one). */
  hints?: TicketHints;
  /** How the feed asks what changed; undefined or `off`: no feed. */
  feedMode?: ChangeFeedMode;
  /** The worker's pace and clock. */
  worker?: Omit<
    MirrorWorkerOptions,
    'platform' | 'stores' | 'poster' | 'logger' | 'planner' | 'pacer'
  >;
  /** The feed's pace and clock. */
  feed?: Omit<
    ChangeFeedOptions,
    'platform' | 'stores' | 'logger' | 'mode' | 'hints' | 'planner' | 'pacer'
  >;
}

/** The mirror's worker and (when a way is set) its change feed. */
export interface MirrorAssembly {
  worker: MirrorWorker;
  feed: ChangeFeed | undefined;
}

/** Assembles the worker and the feed on one set of stores, hints, planner and pacer. */
export function assembleMirror(options: MirrorAssemblyOptions): MirrorAssembly {
  const { platform, stores, planner, pacer } = options;
  const child = (component: string) => options.logger.child?.({ component }) ?? options.logger;
  const worker = new MirrorWorker({
    platform,
    stores,
    poster: options.poster,
    logger: child('mirror'),
    ...(planner ? { planner } : {}),
    ...(pacer ? { pacer } : {}),
    ...options.worker,
  });
  const mode = options.feedMode;
  const feed =
    mode === undefined || mode === 'off'
      ? undefined
      : new ChangeFeed({
          platform,
          stores,
          logger: child('change-feed'),
          mode,
          hints:
            options.hints ??
            new TicketHints({ stores, ...(options.feed?.now ? { now: options.feed.now } : {}) }),
          ...(planner ? { planner } : {}),
          ...(pacer ? { pacer } : {}),
          ...options.feed,
        });
  return { worker, feed };
}
