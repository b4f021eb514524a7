/**
 * Hints that a ticket changed on the platform, from a webhook or a change feed: the ticket is
 * looked at soon through the API (a hint is never trusted for what changed), once however many
 * hints arrive together, and only when a Slack thread follows it. The look is an ordinary
 * scheduled poll, so it spends background budget only and never the people's reserve.
 */
import type { MirrorStore, Now, PollSchedule, ThreadLinks } from '../store/types.ts';
import { type LookRules, lookRules, nextLook } from './look-policy.ts';
import { tuningOf } from './mirror-tuning.ts';
import { RELAXED_PACE } from './poll-planner.ts';

/** How a hint was taken. */
export type HintOutcome = 'scheduled' | 'unlinked';

/** What the hints need. */
export interface TicketHintsOptions {
  stores: { links: ThreadLinks; schedule: PollSchedule; mirror: MirrorStore };
  now?: Now;
  /**
   * How long after a hint the ticket is looked at (default 1 s): the hints a burst of changes
   * sends arrive meanwhile and share the look.
   */
  gatherMs?: number;
  /** Hinted looks at one ticket are at least this far apart (default 5 s): a flood costs little. */
  minGapMs?: number;
  /**
   * A message hint this soon after a write from Slack, and the first since it, is taken for that
   * write's own (default 1 s, less than the platform's AI agent takes to answer).
   */
  ownWriteMs?: number;
  /** The look policy's rules (default: the adaptive rule at the table's values). */
  rules?: LookRules;
}

/** Turns hints into soon, shared looks at linked tickets. */
export class TicketHints {
  readonly #stores: TicketHintsOptions['stores'];
  readonly #now: Now;
  readonly #rules: LookRules;

  constructor(options: TicketHintsOptions) {
    this.#stores = options.stores;
    this.#now = options.now ?? Date.now;
    const rules = options.rules ?? lookRules();
    // The hints' own settings override the shared rules' (tests, the bench).
    const mine = tuningOf('look', {
      ...(options.gatherMs !== undefined ? { gatherMs: options.gatherMs } : {}),
      ...(options.minGapMs !== undefined ? { minGapMs: options.minGapMs } : {}),
      ...(options.ownWriteMs !== undefined ? { ownWriteMs: options.ownWriteMs } : {}),
    });
    this.#rules = {
      ...rules,
      tuning: {
        ...rules.tuning,
        gatherMs: mine.gatherMs,
        minGapMs: mine.minGapMs,
        ownWriteMs: mine.ownWriteMs,
      },
    };
  }

  /**
   * Schedules a look at the ticket when a thread follows it; a ticket nobody follows costs
   * nothing more. `messageOnly`: the hint says a message was added and nothing else (the
   * platform sends a hint of its own for any other change), so reading the messages is enough.
   * `announced`: the platform's webhook announced a change other than a message (a status,
   * priority or assignee), which people wait for as for a message: its look ranks with one.
   */
  async hint(
    ticketId: string,
    options: { messageOnly?: boolean; announced?: boolean } = {},
  ): Promise<HintOutcome> {
    const threads = await this.#stores.links.threadsForTicket(ticketId);
    if (threads.length === 0) return 'unlinked';
    const now = this.#now();
    const state = await this.#stores.mirror.state(ticketId);
    // Recorded so the planner knows which request the look needs (a message hint: the messages
    // alone; any other: the activity) and how much the look matters.
    const scope = options.messageOnly ? 'message' : options.announced ? 'announced' : 'change';
    await this.#stores.mirror.noteHint(ticketId, now, scope);
    // The first message hint just after a write from Slack is, most likely, for that write: the
    // policy has the look wait for the answer's hint (or the first look after the write) to
    // read both at once. It needs the time the ticket is due only then.
    const own =
      options.messageOnly && state !== undefined && state.slackWriteAt > state.lastPolledAt;
    const dueAt = own ? await this.#stores.schedule.dueAt(ticketId) : undefined;
    const event = { type: 'hint', scope, dueAt } as const;
    const look = nextLook({ event, state, pace: RELAXED_PACE, now, rules: this.#rules });
    // pollAt keeps an earlier time already set, so a burst of hints is one look.
    if (look.do === 'look') await this.#stores.schedule.pollAt(ticketId, look.at);
    return 'scheduled';
  }
}
