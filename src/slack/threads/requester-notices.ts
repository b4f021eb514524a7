/**
 * The requester's "your ticket was resolved" direct messages, kept so that the mirror can take
 * their Reopen button away once the ticket is open again, whoever reopened it (the button, a
 * reply in the thread, or the service desk): a stale Reopen is then never left to click.
 *
 * Where each notice landed is kept in the shared claim store, which writes a key once: a
 * ticket's notices take numbered slots (resolved, reopened and resolved again gives two), and
 * the last one filled is the one that can still carry a button. A notice found without its
 * button is marked, so Slack is read once per notice, not at every change of the ticket.
 */
import type { WebClient } from '@slack/web-api';
import type { Ticket } from '../../contract/schemas.ts';
import type { ClaimStore, FairShareStore, JsonValue } from '../../store/types.ts';
import { noticeWithoutReopen } from '../builders/reopened-notice-builder.ts';
import { DONE_STATUSES } from '../builders/ticket-labels.ts';

/** Where a notice landed. */
export interface NoticePlace {
  channel: string;
  ts: string;
}

// Resolved tickets close on the platform within days; a month outlives any Reopen.
const KEPT_MS = 30 * 86_400_000;
// A ticket resolved more often than this is not followed further (slots are read in turn).
const MOST_SLOTS = 50;
// Taking a slot and writing it are one step apart; a crash between them frees the slot.
const SLOT_LEASE_MS = 60_000;

const slotKey = (ticketId: string, slot: number) => `requester-notice:${ticketId}:${slot}`;
const doneKey = (place: NoticePlace) => `requester-notice-done:${place.channel}:${place.ts}`;

function placeOf(result: unknown): NoticePlace | undefined {
  const place = result as Partial<NoticePlace> | null | undefined;
  return typeof place?.channel === 'string' && typeof place.ts === 'string'
    ? { channel: place.channel, ts: place.ts }
    : undefined;
}

/** A ticket of a person's resolved lately, as the notice in their direct messages told them. */
export interface RecentResolution {
  ticketId: string;
  title?: string;
  /** When the notice was sent (ms since the epoch). */
  at: number;
}

/** Where a person's recent resolutions are kept, and for how long they count. */
export interface RecentResolutionsKept {
  kept: Pick<FairShareStore, 'keep' | 'recall'>;
  /** REOPEN_WINDOW: 0 keeps none. */
  windowMs: number;
}

/** REOPEN_WINDOW's default: 3 days. */
export const DEFAULT_REOPEN_WINDOW_MS = 3 * 86_400_000;

const recentKey = (userId: string) => `resolved-for:${userId}`;
// The newest few are enough to pick from; a person rarely has more resolved in a few days.
const MOST_RECENT = 5;

function recentOf(value: unknown): RecentResolution[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (r): r is RecentResolution =>
      typeof (r as RecentResolution | null)?.ticketId === 'string' &&
      typeof (r as RecentResolution).at === 'number',
  );
}

/** The person's tickets resolved within the window, newest first. */
export async function recentResolutions(
  recent: RecentResolutionsKept,
  userId: string,
  now: number = Date.now(),
): Promise<RecentResolution[]> {
  if (recent.windowMs <= 0) return [];
  const kept = await recent.kept.recall(recentKey(userId));
  return recentOf(kept?.value).filter((r) => now - r.at < recent.windowMs);
}

/** Keeps the requester's notices and brings them up to date when their ticket reopens. */
export class RequesterNotices {
  readonly #client: WebClient;
  readonly #claims: ClaimStore;
  readonly #recent: RecentResolutionsKept | undefined;

  constructor(client: WebClient, claims: ClaimStore, recent?: RecentResolutionsKept) {
    this.#client = client;
    this.#claims = claims;
    this.#recent = recent;
  }

  /**
   * Keeps that the person was told this ticket was resolved, for REOPEN_WINDOW: a direct
   * message from them meanwhile asks whether it is about it. Two resolutions kept at the same
   * moment may keep one: the other's message is then filed as a new ticket, as before.
   */
  async resolvedFor(userId: string, resolution: Omit<RecentResolution, 'at'>): Promise<void> {
    const recent = this.#recent;
    if (!recent || recent.windowMs <= 0) return;
    const now = Date.now();
    const others = (await recentResolutions(recent, userId, now)).filter(
      (r) => r.ticketId !== resolution.ticketId,
    );
    const value = [{ ...resolution, at: now }, ...others].slice(0, MOST_RECENT);
    await recent.kept.keep(recentKey(userId), value as unknown as JsonValue, recent.windowMs);
  }

  /** Keeps where the ticket's "resolved" notice landed. */
  async record(ticketId: string, place: NoticePlace): Promise<void> {
    for (let slot = 0; slot < MOST_SLOTS; slot++) {
      const key = slotKey(ticketId, slot);
      const claim = await this.#claims.claim(key, SLOT_LEASE_MS);
      if (claim.state !== 'claimed') continue;
      await this.#claims.complete(key, claim.token, { ...place }, KEPT_MS);
      return;
    }
  }

  /** The ticket's latest notice, if one is kept. */
  async latest(ticketId: string): Promise<NoticePlace | undefined> {
    let latest: NoticePlace | undefined;
    for (let slot = 0; slot < MOST_SLOTS; slot++) {
      const record = await this.#claims.get(slotKey(ticketId, slot));
      if (!record) break;
      if (record.state === 'done') latest = placeOf(record.result) ?? latest;
    }
    return latest;
  }

  /**
   * Takes the Reopen button off the ticket's latest notice when the ticket is open again,
   * saying it was reopened. Nothing happens while it is resolved or closed, or once done.
   */
  async refresh(ticket: Pick<Ticket, 'id' | 'status'>): Promise<void> {
    if (DONE_STATUSES.has(ticket.status)) return;
    const place = await this.latest(ticket.id);
    if (!place) return;
    if ((await this.#claims.get(doneKey(place)))?.state === 'done') return;
    const page = await this.#client.conversations.history({
      channel: place.channel,
      oldest: place.ts,
      latest: place.ts,
      inclusive: true,
      limit: 1,
    });
    const notice = page.messages?.find((message) => message.ts === place.ts);
    const blocks = notice ? noticeWithoutReopen(notice.blocks ?? [], ticket.id) : undefined;
    if (notice && blocks) {
      await this.#client.chat.update({
        channel: place.channel,
        ts: place.ts,
        text: notice.text ?? `${ticket.id} was reopened`,
        blocks: blocks as never,
      });
    }
    // Updated now, updated already by its own button, or deleted: nothing more to do.
    const mark = await this.#claims.claim(doneKey(place), SLOT_LEASE_MS);
    if (mark.state === 'claimed')
      await this.#claims.complete(doneKey(place), mark.token, true, KEPT_MS);
  }
}
