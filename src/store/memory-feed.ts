/** The change feed's memory held in this process: the twin of `redis-feed.ts`. */
import { requireKey } from './argument-checks.ts';
import { decodeFacts, decodeFeedRecord, encodeFacts, encodeFeedRecord } from './feed-codec.ts';
import type { ChangeFeedRecord, ChangeFeedStore, TicketFacts } from './types.ts';

/** The record and the facts as text in Maps; each method runs to completion, so each is atomic. */
export class MemoryChangeFeedStore implements ChangeFeedStore {
  #record: { scannedAt: number; data: string } | undefined;
  readonly #facts = new Map<string, string>();

  async state(): Promise<ChangeFeedRecord | undefined> {
    return this.#record && decodeFeedRecord(this.#record.scannedAt, this.#record.data);
  }

  async saveState(record: ChangeFeedRecord): Promise<boolean> {
    const encoded = encodeFeedRecord(record);
    if (this.#record && this.#record.scannedAt > encoded.scannedAt) return false;
    this.#record = encoded;
    return true;
  }

  async facts(ticketIds: readonly string[]): Promise<Map<string, TicketFacts>> {
    const found = new Map<string, TicketFacts>();
    for (const ticketId of ticketIds) {
      const text = this.#facts.get(requireKey(ticketId, 'ticket ID'));
      if (text !== undefined) found.set(ticketId, decodeFacts(text));
    }
    return found;
  }

  async noteFacts(facts: ReadonlyMap<string, TicketFacts>): Promise<void> {
    // Every entry is checked before any is kept, as one Redis command keeps all or none.
    const encoded = [...facts].map(([id, f]) => [id, encodeFacts(id, f)] as const);
    for (const [ticketId, text] of encoded) this.#facts.set(ticketId, text);
  }

  async forgetFacts(ticketIds: readonly string[]): Promise<void> {
    for (const ticketId of ticketIds) this.#facts.delete(requireKey(ticketId, 'ticket ID'));
  }
}
