/**
 * Triage channels kept where Slack holds them, so they outlive an empty Redis: a channel set
 * with `/ticket triage` gets a message from the app naming the desk, with the metadata
 * `{event_type: 'triage_channel', event_payload: {desk, set_at}}`, pinned there. Read back, the
 * pins of the private channels the app is in say which desk each channel triages (the newest
 * record of a desk wins). Ending a channel's triage, or moving its desk elsewhere, unpins it.
 *
 * Only the app's own pinned messages count (metadata is any app's to set), and only private
 * channels are read: a triage channel carries internal notes, and no public channel is one.
 * Reading is paced (pins.list is one of Slack's slower tiers) and waits out a 429's
 * Retry-After; any other failure is the caller's, who tries again later.
 */
import type { WebClient } from '@slack/web-api';
import { sleep as realSleep, type Sleep } from '../../clock.ts';
import { slackRetryAt } from '../app/slack-clients.ts';
import { buildTriageChannelRecord } from '../builders/triage-channel-record-builder.ts';
import type { TriageRecords } from '../deps.ts';
import {
  type ThreadMessage,
  triageChannelMetadata,
  triageChannelRecordOf,
} from '../posting/post-metadata.ts';

/** One triage channel's record, as read back from its pins. */
export interface TriageChannelRecord {
  desk: string;
  channel: string;
  /** When it was set, ms: the newest record of a desk wins. */
  setAt: number;
  /** The pinned message. */
  ts: string;
}

/** Options of the records. */
export interface TriageChannelRecordsOptions {
  client: Pick<WebClient, 'auth' | 'chat' | 'conversations' | 'pins' | 'users'>;
  /** Wait between two calls while reading every channel back (default 3 s: Tier 2's pace). */
  paceMs?: number;
  /** Most waits on one call's 429 before it is the caller's failure (default 3). */
  maxRateLimitWaits?: number;
  now?: () => number;
  sleep?: Sleep;
}

interface PinItem {
  type?: string;
  message?: ThreadMessage;
}

const PAGE = 200;

/** Pins, reads back and unpins triage channels' records; see the file comment. */
export class TriageChannelRecords implements TriageRecords {
  readonly #client: TriageChannelRecordsOptions['client'];
  readonly #paceMs: number;
  readonly #maxWaits: number;
  readonly #now: () => number;
  readonly #sleep: Sleep;
  #appUserId: Promise<string> | undefined;

  constructor(options: TriageChannelRecordsOptions) {
    this.#client = options.client;
    this.#paceMs = options.paceMs ?? 3_000;
    this.#maxWaits = options.maxRateLimitWaits ?? 3;
    this.#now = options.now ?? Date.now;
    this.#sleep = options.sleep ?? ((ms, signal) => realSleep(ms, signal, { keepsAlive: false }));
  }

  /** Posts and pins the record of `desk` in `channel`, set now (by `setBy`, when a person). */
  async remember(
    channel: string,
    record: { desk: string; deskName?: string | undefined; setBy?: string | undefined },
  ): Promise<void> {
    const posted = await this.#client.chat.postMessage({
      channel,
      ...buildTriageChannelRecord(record),
      metadata: triageChannelMetadata(record.desk, this.#now()),
    });
    if (!posted.ts) return;
    await this.#client.pins.add({ channel, timestamp: posted.ts });
  }

  /** Unpins the records of `desks` in `channel`; the desks whose record was unpinned. */
  async forget(channel: string, desks: readonly string[]): Promise<string[]> {
    const wanted = new Set(desks);
    const unpinned: string[] = [];
    for (const record of await this.#recordsIn(channel, false)) {
      if (!wanted.has(record.desk)) continue;
      await this.#client.pins.remove({ channel, timestamp: record.ts });
      unpinned.push(record.desk);
    }
    return unpinned;
  }

  /**
   * Every record pinned in the private channels the app is in, paced; see the file comment.
   * `signal` ends the waits at once (the app is stopping).
   */
  async readAll(signal?: AbortSignal): Promise<TriageChannelRecord[]> {
    const found: TriageChannelRecord[] = [];
    for (const channel of await this.#privateChannels(signal)) {
      found.push(...(await this.#recordsIn(channel, signal ?? true)));
    }
    return found;
  }

  async #privateChannels(signal: AbortSignal | undefined): Promise<string[]> {
    const channels: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.#paced(signal, () =>
        this.#client.users.conversations({
          types: 'private_channel',
          exclude_archived: true,
          limit: PAGE,
          ...(cursor ? { cursor } : {}),
        }),
      );
      for (const channel of page.channels ?? []) if (channel.id) channels.push(channel.id);
      cursor = page.response_metadata?.next_cursor || undefined;
    } while (cursor);
    return channels;
  }

  // The app's pinned records in one channel. Their metadata is read from the history, where
  // Slack documents it (`include_all_metadata`), when the pins' listing leaves it out.
  // `paced` is false for one channel (a command), else the read-back's signal (or true).
  async #recordsIn(channel: string, paced: AbortSignal | boolean): Promise<TriageChannelRecord[]> {
    const signal = typeof paced === 'boolean' ? undefined : paced;
    const call = <T>(fn: () => Promise<T>) =>
      paced === false ? this.#limited(fn) : this.#paced(signal, fn);
    const appUserId = await this.#appUser();
    const listed = await call(() => this.#client.pins.list({ channel }));
    const records: TriageChannelRecord[] = [];
    for (const item of (listed.items ?? []) as PinItem[]) {
      const message = item.message;
      if (item.type !== 'message' || !message?.ts || message.user !== appUserId) continue;
      const ts = message.ts;
      const data =
        triageChannelRecordOf(message) ??
        triageChannelRecordOf((await call(() => this.#messageAt(channel, ts))) ?? { ts });
      if (data) records.push({ ...data, channel, ts });
    }
    return records;
  }

  async #messageAt(channel: string, ts: string): Promise<ThreadMessage | undefined> {
    const history = await this.#client.conversations.history({
      channel,
      latest: ts,
      oldest: ts,
      inclusive: true,
      limit: 1,
      include_all_metadata: true,
    });
    return ((history.messages ?? []) as ThreadMessage[]).find((m) => m.ts === ts);
  }

  #appUser(): Promise<string> {
    if (!this.#appUserId) {
      const asked = this.#limited(() => this.#client.auth.test()).then((answer) => {
        if (!answer.user_id) throw new TypeError('auth.test named no bot user');
        return answer.user_id;
      });
      // A failed answer is not kept: the next read asks again.
      asked.catch(() => {
        if (this.#appUserId === asked) this.#appUserId = undefined;
      });
      this.#appUserId = asked;
    }
    return this.#appUserId;
  }

  // One call after the pace's wait.
  async #paced<T>(signal: AbortSignal | undefined, fn: () => Promise<T>): Promise<T> {
    await this.#sleep(this.#paceMs, signal);
    return this.#limited(fn, signal);
  }

  // One call, tried again after each 429's Retry-After, a few times at most.
  async #limited<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    for (let waits = 0; ; waits++) {
      try {
        return await fn();
      } catch (error) {
        const retryAt = slackRetryAt(error, this.#now());
        if (retryAt === undefined || waits >= this.#maxWaits) throw error;
        await this.#sleep(Math.max(0, retryAt - this.#now()), signal);
      }
    }
  }
}
