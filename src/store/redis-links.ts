/**
 * Thread links in Redis. Both directions live under one links hash tag, so one script changes
 * them together and they never disagree, on a Cluster too. The cost is that all links sit on
 * one Cluster slot; a service desk's links are small and rarely written, so that is the better
 * trade than two unrelated writes per link.
 */
import { requireKey } from './argument-checks.ts';
import { StoreContentionError, ThreadLinkedElsewhereError } from './errors.ts';
import { globEscape, scanAll } from './redis-scan.ts';
import type { RedisClient, RedisScript } from './redis-script.ts';
import { defineScript, runCommand } from './redis-script.ts';
import { parseThreadMember, threadMember, ticketThreadMember } from './thread-member.ts';
import type { LinkOptions, Now, Thread, ThreadLinks } from './types.ts';

/** The links' keys; every one carries the links' tag. */
export interface LinkKeys {
  thread(member: string): string;
  ticket(ticketId: string): string;
}

// KEYS thread, ticket, the ticket the caller read the thread linked to (or ticket again);
// ARGV ticketId, member as listed, now, that ticket's ID ('' for none), the member's plain and
// triage forms. The third key must be declared, so the caller reads it first and the script
// answers -1, changing nothing, when it changed meanwhile.
const LINK = `
local current = redis.call('GET', KEYS[1])
if (current or '') ~= ARGV[4] then return -1 end
if current ~= ARGV[1] then
  if current then redis.call('ZREM', KEYS[3], ARGV[5], ARGV[6]) end
  redis.call('SET', KEYS[1], ARGV[1])
end
local added = 0
if not redis.call('ZSCORE', KEYS[2], ARGV[5]) and not redis.call('ZSCORE', KEYS[2], ARGV[6]) then
  added = redis.call('ZADD', KEYS[2], 'NX', ARGV[3], ARGV[2])
end
if current == ARGV[1] and added == 0 then return 0 end
return 1
`;

// Rounds of read-then-link before giving up: each lost round means another process relinked
// this very thread in between, which a handful of rounds outlasts.
const LINK_ROUNDS = 5;

// KEYS thread, ticket; ARGV ticketId, the member's plain and triage forms.
const UNLINK = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[2], ARGV[3])
return 1
`;

/** Thread links in Redis; see the key layout in `redis-stores.ts`. No key expires. */
export class RedisThreadLinks implements ThreadLinks {
  readonly #redis: RedisClient;
  readonly #keys: LinkKeys;
  readonly #now: Now;
  readonly #link: RedisScript;
  readonly #unlink: RedisScript;

  constructor(redis: RedisClient, keys: LinkKeys, now: Now) {
    this.#redis = redis;
    this.#keys = keys;
    this.#now = now;
    this.#link = defineScript(redis, 'servicedeskLinksLink', 3, LINK);
    this.#unlink = defineScript(redis, 'servicedeskLinksUnlink', 2, UNLINK);
  }

  async link(ticketId: string, thread: Thread, options: LinkOptions = {}): Promise<boolean> {
    requireKey(ticketId, 'ticket ID');
    const member = threadMember(thread.channel, thread.threadTs);
    const op = 'links.link';
    const k = this.#keys;
    for (let round = 0; round < LINK_ROUNDS; round++) {
      const current = await runCommand(op, () => this.#redis.get(k.thread(member)));
      // Decided on what was read: the script changes nothing (-1) unless it is still so.
      if (current !== null && current !== ticketId && !options.move)
        throw new ThreadLinkedElsewhereError(current, ticketId);
      const reply = await this.#link(
        op,
        [k.thread(member), k.ticket(ticketId), k.ticket(current ?? ticketId)],
        [
          ticketId,
          ticketThreadMember(thread),
          this.#now(),
          current ?? '',
          member,
          ticketThreadMember({ ...thread, triage: true }),
        ],
      );
      if (reply !== -1) return reply === 1;
    }
    throw new StoreContentionError(op, LINK_ROUNDS);
  }

  async ticketForThread(channel: string, threadTs: string): Promise<string | undefined> {
    const key = this.#keys.thread(threadMember(channel, threadTs));
    const ticketId = await runCommand('links.ticketForThread', () => this.#redis.get(key));
    return ticketId ?? undefined;
  }

  async threadsForTicket(ticketId: string): Promise<Thread[]> {
    requireKey(ticketId, 'ticket ID');
    const key = this.#keys.ticket(ticketId);
    const members = await runCommand('links.threadsForTicket', () =>
      this.#redis.zrange(key, 0, '-1'),
    );
    return members.map(parseThreadMember);
  }

  async channels(): Promise<string[]> {
    const channels = new Set<string>();
    for (const member of await this.#threadMembers('links.channels')) {
      channels.add(parseThreadMember(member).channel);
    }
    return [...channels].sort();
  }

  async unlinkChannels(channels: readonly string[]): Promise<number> {
    const gone = new Set(channels);
    let unlinked = 0;
    for (const member of await this.#threadMembers('links.unlinkChannels')) {
      const thread = parseThreadMember(member);
      if (!gone.has(thread.channel)) continue;
      const key = this.#keys.thread(member);
      const ticketId = await runCommand('links.unlinkChannels', () => this.#redis.get(key));
      if (ticketId !== null && (await this.unlink(ticketId, thread))) unlinked += 1;
    }
    return unlinked;
  }

  // Every linked thread, as its key names it: a scan, for the rare work done per channel (an
  // uninstall, the first second install). The links share one tag, so one node holds them.
  async #threadMembers(operation: string): Promise<string[]> {
    const start = this.#keys.thread('');
    const keys = await scanAll(this.#redis, `${globEscape(start)}*`, operation);
    return keys.map((key) => key.slice(start.length));
  }

  async unlink(ticketId: string, thread: Thread): Promise<boolean> {
    requireKey(ticketId, 'ticket ID');
    const member = threadMember(thread.channel, thread.threadTs);
    const k = this.#keys;
    const reply = await this.#unlink(
      'links.unlink',
      [k.thread(member), k.ticket(ticketId)],
      [ticketId, member, ticketThreadMember({ ...thread, triage: true })],
    );
    return reply === 1;
  }
}
