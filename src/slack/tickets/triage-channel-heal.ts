/**
 * Triage channels set with `/ticket triage` come back after Redis came back empty. A sentinel
 * in the shared store says the store holds them: a replica reads it once a minute (one Redis
 * read, no Slack call). Missing, it means the store was emptied (or is new): one replica claims
 * the work and reads the channels' pinned records back from Slack (`triage-channel-records.ts`,
 * paced), restores each desk whose newest record names a channel, unless something was stored
 * for the desk since, pins a record for any channel stored without one (set before records
 * existed), and writes the sentinel. A failure leaves the sentinel unwritten, so the next
 * check tries again. The defaults from DESK_TRIAGE_CHANNELS are never stored and need no heal.
 * Installed by OAuth and in no workspace yet, there is nothing to read: each check waits (said
 * once) until an install.
 */
import type { Logger } from 'pino';
import type { Stores } from '../../store/types.ts';
import { isInstalledNowhere } from '../errors.ts';
import { isSlackCallError, isTransient, retryAtOf } from '../outbox/transient-errors.ts';
import type { TriageChannelRecord, TriageChannelRecords } from './triage-channel-records.ts';

/** The sentinel's key in the claims store. */
export const TRIAGE_KEPT_KEY = 'triage-channels-kept';
const KEPT_TTL_MS = 10 * 365 * 86_400_000;
// Long enough for a paced read of a few hundred channels; a crashed healer's lease lapses.
const HEAL_LEASE_MS = 30 * 60_000;
// After Slack refused for good (a scope missing): asked again this much later, not each minute.
const REFUSED_WAIT_MS = 60 * 60_000;

/** Options of the heal. */
export interface TriageChannelHealOptions {
  records: Pick<TriageChannelRecords, 'readAll' | 'remember'>;
  stores: Pick<Stores, 'claims' | 'triageChannels'>;
  logger: Pick<Logger, 'info' | 'warn'>;
  /** Told of an unexpected error (a bug), which is never swallowed. */
  report: (error: unknown, context: Record<string, unknown>) => void;
  /** How often the sentinel is read (default 60 s). */
  recheckMs?: number;
  now?: () => number;
}

/** What one check did. */
export type HealOutcome = 'kept' | 'healed' | 'busy' | 'failed' | 'waiting' | 'stopped';

/** Notices an emptied store and brings the triage channels back; see the file comment. */
export class TriageChannelHeal {
  readonly #records: TriageChannelHealOptions['records'];
  readonly #stores: TriageChannelHealOptions['stores'];
  readonly #logger: TriageChannelHealOptions['logger'];
  readonly #report: TriageChannelHealOptions['report'];
  readonly #recheckMs: number;
  readonly #now: () => number;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<unknown> | undefined;
  #notBefore = 0;
  // Whether "installed nowhere yet" was said: once until a check gets past it.
  #waitSaid = false;
  // Ends a paced read at once when the app stops: shutdown never waits minutes on it.
  readonly #stopping = new AbortController();

  constructor(options: TriageChannelHealOptions) {
    this.#records = options.records;
    this.#stores = options.stores;
    this.#logger = options.logger;
    this.#report = options.report;
    this.#recheckMs = options.recheckMs ?? 60_000;
    this.#now = options.now ?? Date.now;
  }

  /** Checks now, then once every `recheckMs`, one check at a time. */
  start(): void {
    if (this.#timer) return;
    const tick = () => {
      if (this.#running) return;
      this.#running = this.check()
        .catch((error: unknown) => this.#report(error, { task: 'triage-channel-heal' }))
        .finally(() => {
          this.#running = undefined;
        });
    };
    this.#timer = setInterval(tick, this.#recheckMs);
    this.#timer.unref();
    tick();
  }

  /** Stops checking; a read under way stops at its next wait, giving the work back. */
  async stop(): Promise<void> {
    this.#stopping.abort();
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }

  /** Reads the sentinel, and heals when it is missing; Slack's and Redis's failures are told. */
  async check(): Promise<HealOutcome> {
    if (this.#stopping.signal.aborted) return 'stopped';
    if (this.#now() < this.#notBefore) return 'waiting';
    const { claims } = this.#stores;
    if ((await claims.get(TRIAGE_KEPT_KEY))?.state === 'done') return 'kept';
    const claim = await claims.claim(TRIAGE_KEPT_KEY, HEAL_LEASE_MS);
    if (claim.state !== 'claimed') return 'busy';
    try {
      const restored = await this.#heal();
      await claims.complete(
        TRIAGE_KEPT_KEY,
        claim.token,
        { at: this.#now(), restored },
        KEPT_TTL_MS,
      );
      this.#waitSaid = false;
      return 'healed';
    } catch (error) {
      // Given back for the next check; if Redis fails here too, the lease lapses by itself.
      await claims.release(TRIAGE_KEPT_KEY, claim.token).catch(() => undefined);
      if (this.#stopping.signal.aborted) return 'stopped';
      // OAuth mode before the first install: a normal state, not a failure.
      if (isInstalledNowhere(error)) {
        if (!this.#waitSaid) {
          this.#logger.info(
            'triage channels not read back yet: the app is installed in no workspace yet; tried again at each check',
          );
        }
        this.#waitSaid = true;
        return 'waiting';
      }
      this.#waitSaid = false;
      if (!isSlackCallError(error)) throw error;
      // Slack's Retry-After, else the next check (an hour after a refusal such as a missing
      // scope): the sentinel stays missing until it is done.
      const refused = !isTransient(error);
      this.#notBefore =
        retryAtOf(error, this.#now()) ?? (refused ? this.#now() + REFUSED_WAIT_MS : 0);
      this.#logger.warn(
        { err: error },
        refused
          ? 'triage channels not read back from Slack: it refused (npm run doctor names a missing scope); trying again in an hour'
          : 'triage channels not read back from Slack after the store was emptied; trying again later',
      );
      return 'failed';
    }
  }

  async #heal(): Promise<number> {
    // What the store held before Slack was read: a channel set by command while the records are
    // read pins its own record, and must not be given a second one here.
    const stored = await this.#stores.triageChannels.all();
    const records = await this.#records.readAll(this.#stopping.signal);
    const newest = new Map<string, TriageChannelRecord>();
    for (const record of records) {
      const kept = newest.get(record.desk);
      if (!kept || record.setAt > kept.setAt) newest.set(record.desk, record);
    }
    let restored = 0;
    for (const { desk, channel } of newest.values()) {
      if (await this.#stores.triageChannels.restore(desk, channel)) restored++;
    }
    // Set before records existed (or a pin removed by hand): recorded now, for the next time.
    const recorded = new Set(records.map((r) => `${r.desk}\n${r.channel}`));
    for (const entry of stored) {
      if (entry.origin !== 'slack' || recorded.has(`${entry.desk}\n${entry.channel}`)) continue;
      // Moved or ended by command since: that command kept (or unpinned) its own record.
      if ((await this.#stores.triageChannels.channelFor(entry.desk)) !== entry.channel) continue;
      try {
        await this.#records.remember(entry.channel, { desk: entry.desk });
      } catch (error) {
        // One channel the app can no longer post in does not hold up the others' heal.
        if (!isSlackCallError(error)) throw error;
        this.#logger.warn(
          { err: error, channel: entry.channel, desk: entry.desk },
          'triage channel has no pinned record, and the app could not pin one',
        );
      }
    }
    this.#logger.info(
      { restored, records: records.length },
      'triage channels read back from their pinned records in Slack',
    );
    return restored;
  }
}
