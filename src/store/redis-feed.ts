/**
 * The change feed's memory in Redis: one hash for the record of the last scan (`scannedAt`,
 * `data`) and one for the facts learnt of tickets (ticket ID -> JSON). Both carry the `{feed}`
 * tag. Facts are few (linked tickets only) and small, so they never expire.
 */
import { requireKey } from './argument-checks.ts';
import { decodeFacts, decodeFeedRecord, encodeFacts, encodeFeedRecord } from './feed-codec.ts';
import type { RedisClient, RedisScript } from './redis-script.ts';
import { defineScript, runCommand } from './redis-script.ts';
import type { ChangeFeedRecord, ChangeFeedStore, TicketFacts } from './types.ts';

/** The feed's keys; both carry the `{feed}` tag. */
export interface FeedKeys {
  state: string;
  facts: string;
}

// KEYS state; ARGV scannedAt, data. A save from an earlier scan (a replica whose lease lapsed
// while it was slow) never replaces a later one.
const SAVE_STATE = `
local cur = tonumber(redis.call('HGET', KEYS[1], 'scannedAt'))
if cur and cur > tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'scannedAt', ARGV[1], 'data', ARGV[2])
return 1
`;

/** The change feed's store in Redis; see the key layout in `redis-stores.ts`. */
export class RedisChangeFeedStore implements ChangeFeedStore {
  readonly #redis: RedisClient;
  readonly #keys: FeedKeys;
  readonly #saveState: RedisScript;

  constructor(redis: RedisClient, keys: FeedKeys) {
    this.#redis = redis;
    this.#keys = keys;
    this.#saveState = defineScript(redis, 'servicedeskFeedSaveState', 1, SAVE_STATE);
  }

  async state(): Promise<ChangeFeedRecord | undefined> {
    const [scannedAt, data] = await runCommand('feed.state', () =>
      this.#redis.hmget(this.#keys.state, 'scannedAt', 'data'),
    );
    if (scannedAt == null || data == null) return undefined;
    return decodeFeedRecord(scannedAt, data);
  }

  async saveState(record: ChangeFeedRecord): Promise<boolean> {
    const { scannedAt, data } = encodeFeedRecord(record);
    const reply = await this.#saveState('feed.saveState', [this.#keys.state], [scannedAt, data]);
    return reply === 1;
  }

  async facts(ticketIds: readonly string[]): Promise<Map<string, TicketFacts>> {
    for (const ticketId of ticketIds) requireKey(ticketId, 'ticket ID');
    const found = new Map<string, TicketFacts>();
    if (ticketIds.length === 0) return found;
    const texts = await runCommand('feed.facts', () =>
      this.#redis.hmget(this.#keys.facts, ...ticketIds),
    );
    ticketIds.forEach((ticketId, index) => {
      const text = texts[index];
      if (text != null) found.set(ticketId, decodeFacts(text));
    });
    return found;
  }

  async noteFacts(facts: ReadonlyMap<string, TicketFacts>): Promise<void> {
    const fields = [...facts].flatMap(([ticketId, f]) => [ticketId, encodeFacts(ticketId, f)]);
    if (fields.length === 0) return;
    await runCommand('feed.noteFacts', () => this.#redis.hset(this.#keys.facts, ...fields));
  }

  async forgetFacts(ticketIds: readonly string[]): Promise<void> {
    for (const ticketId of ticketIds) requireKey(ticketId, 'ticket ID');
    if (ticketIds.length === 0) return;
    await runCommand('feed.forgetFacts', () => this.#redis.hdel(this.#keys.facts, ...ticketIds));
  }
}
