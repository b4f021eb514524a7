/**
 * Hints that a ticket changed on the platform, from a webhook or a change feed: the ticket is
 * looked at soon through the API (a hint is never trusted for what changed), once however many
 * hints arrive together, and only when a Slack thread follows it. The look is an ordinary
 * scheduled poll, so it spends background budget only and never the people's reserve.
 */
import type { MirrorStore, Now, PollSchedule, ThreadLinks } from '../store/types.ts';
import type { MirrorState } from './mirror-state.ts';
import { HINTED_FIRST_LOOK_MS } from './poll-planner.ts';

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
}

/** Turns hints into soon, shared looks at linked tickets. */
export class TicketHints {
  readonly #stores: TicketHintsOptions['stores'];
  readonly #now: Now;
  readonly #gatherMs: number;
  readonly #minGapMs: number;
  readonly #ownWriteMs: number;

  constructor(options: TicketHintsOptions) {
    this.#stores = options.stores;
    this.#now = options.now ?? Date.now;
    this.#gatherMs = options.gatherMs ?? 1_000;
    this.#minGapMs = options.minGapMs ?? 5_000;
    this.#ownWriteMs = options.ownWriteMs ?? 1_000;
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
    // look waits for the answer's hint (or the first look after the write) to read both at once.
    if (options.messageOnly && state && (await this.#ownWrite(ticketId, state, now))) {
      return 'scheduled';
    }
    const earliest = (state?.lastPolledAt ?? 0) + this.#minGapMs;
    // pollAt keeps an earlier time already set, so a burst of hints is one look.
    await this.#stores.schedule.pollAt(ticketId, Math.max(now + this.#gatherMs, earliest));
    return 'scheduled';
  }

  /** Whether a message hint is, most likely, for a write from Slack whose look is near. */
  async #ownWrite(ticketId: string, state: MirrorState, now: number): Promise<boolean> {
    const unread = state.slackWriteAt > state.lastPolledAt;
    const first = state.messageHintedAt < state.slackWriteAt;
    if (!unread || !first || now - state.slackWriteAt >= this.#ownWriteMs) return false;
    // Taken wrongly (an answer within the second), it waits for that look: so only a near one.
    const due = await this.#stores.schedule.dueAt(ticketId);
    return due !== undefined && due <= now + HINTED_FIRST_LOOK_MS;
  }
}
