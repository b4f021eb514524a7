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
import type { ClaimStore } from '../../store/types.ts';
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

/** Keeps the requester's notices and brings them up to date when their ticket reopens. */
export class RequesterNotices {
  readonly #client: WebClient;
  readonly #claims: ClaimStore;

  constructor(client: WebClient, claims: ClaimStore) {
    this.#client = client;
    this.#claims = claims;
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
