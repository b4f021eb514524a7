/**
 * Hints that a ticket changed on the platform, from a webhook or a change feed: the ticket is
 * looked at soon through the API (a hint is never trusted for what changed), once however many
 * hints arrive together, and only when a Slack thread follows it. The look is an ordinary
 * scheduled poll, so it spends background budget only and never the people's reserve.
 */
import type { Clock, MirrorStore, PollSchedule, ThreadLinks } from '../store/types.ts';

/** How a hint was taken. */
export type HintOutcome = 'scheduled' | 'unlinked';

/** What the hints need. */
export interface TicketHintsOptions {
  stores: { links: ThreadLinks; schedule: PollSchedule; mirror: MirrorStore };
  now?: Clock;
  /**
   * How long after a hint the ticket is looked at (default 1 s): the hints a burst of changes
   * sends arrive meanwhile and share the look.
   */
  gatherMs?: number;
  /** Hinted looks at one ticket are at least this far apart (default 5 s): a flood costs little. */
  minGapMs?: number;
}

/** Turns hints into soon, shared looks at linked tickets. */
export class TicketHints {
  readonly #stores: TicketHintsOptions['stores'];
  readonly #now: Clock;
  readonly #gatherMs: number;
  readonly #minGapMs: number;

  constructor(options: TicketHintsOptions) {
    this.#stores = options.stores;
    this.#now = options.now ?? Date.now;
    this.#gatherMs = options.gatherMs ?? 1_000;
    this.#minGapMs = options.minGapMs ?? 5_000;
  }

  /**
   * Schedules a look at the ticket when a thread follows it; a ticket nobody follows costs
   * nothing more. `messageOnly`: the hint says a message was added and nothing else (the
   * platform sends a hint of its own for any other change), so reading the messages is enough.
   */
  async hint(ticketId: string, options: { messageOnly?: boolean } = {}): Promise<HintOutcome> {
    const threads = await this.#stores.links.threadsForTicket(ticketId);
    if (threads.length === 0) return 'unlinked';
    const now = this.#now();
    // Recorded so the planner knows which request the look needs (a message hint: the messages
    // alone; any other: the activity) and lets it past the pacer's gate for routine looks.
    await this.#stores.mirror.noteHint(ticketId, now, options.messageOnly ? 'message' : 'change');
    const state = await this.#stores.mirror.state(ticketId);
    const earliest = (state?.lastPolledAt ?? 0) + this.#minGapMs;
    // pollAt keeps an earlier time already set, so a burst of hints is one look.
    await this.#stores.schedule.pollAt(ticketId, Math.max(now + this.#gatherMs, earliest));
    return 'scheduled';
  }
}
