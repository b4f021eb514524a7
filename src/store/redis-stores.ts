/**
 * The Redis backend: claims, outbox, links, rate budget, poll schedule and mirror state,
 * shared by every replica.
 *
 * Key layout (`<p>` is the caller's prefix; `{...}` is the Cluster hash tag). Every key starts
 * with the prefix, so ACL key patterns (`~<p>*`) and `SCAN MATCH <p>*` find all of one
 * deployment's keys; the shared groups also carry the prefix inside their tag, so deployments
 * sharing a Cluster do not pile onto the same four slots:
 *
 *   <p>claim:{<key>}                       hash state leased|done, token, expiresAt, result
 *                                          (PEXPIRE: the lease, or 24 h once done)
 *   <p>{<p>outbox}:seq                     string, the last entry id handed out
 *   <p>{<p>outbox}:due                     zset   entry id -> next attempt (ms)
 *   <p>{<p>outbox}:leased                  zset   entry id -> lease expiry (ms)
 *   <p>{<p>outbox}:all                     zset   entry id -> queued since (ms): depth, oldest age
 *   <p>{<p>outbox}:entries                 hash   <id>:<field> for every queued and dead entry:
 *                                                 deliveryKey, kind, payload (JSON text),
 *                                                 attempts, createdAt, nextAttemptAt, lastError,
 *                                                 rememberMs, leaseToken, workerId,
 *                                                 leaseExpiresAt; a dead one failedAt and error
 *   <p>{<p>outbox}:delivery:<deliveryKey>  hash   state pending|done|failed, id, result, error,
 *                                                 expiresAt (no expiry while pending,
 *                                                 PEXPIRE rememberMs once finished)
 *   <p>{<p>outbox}:dead                    list   ids of dead entries, newest first, capped
 *   <p>{<p>links}:thread:<["channel","ts"]>
 *                                          string ticket ID
 *   <p>{<p>links}:ticket:<ticketId>        zset   ["channel","ts"] -> when linked (ms)
 *   <p>{<p>budget}:log                     zset   one member per request taken -> when (ms);
 *                                                 the rolling hour (PEXPIRE 61 min); members
 *                                                 <ms>:b:<uuid> (background) or <ms>:i:<uuid>
 *   <p>{<p>budget}:state                   hash   blockedUntil (after a 429), and per window
 *                                                 (minute|hour) Remaining, ObservedAt, ResetAt
 *                                                 adopted from X-RateLimit-* (PEXPIRE 2 h)
 *   <p>{<p>poll}:due                       zset   ticket ID -> next poll (ms); a claimed
 *                                                 ticket's score is its claim's expiry
 *   <p>{<p>poll}:leases                    hash   ticket ID -> token|expiresAt|pending (the
 *                                                 earliest hint that came during the claim)
 *   <p>{<p>poll}:holds                     hash   ticket ID -> no poll before (ms): Slack's
 *                                                 Retry-After on a post, until it passes
 *   <p>{<p>clock}:due, :leases, :holds    the same for the service-level clock watch: ticket
 *                                                 ID -> when its clocks next change (ms)
 *   <p>{<p>feed}:state                     hash   scannedAt (ms), data (JSON): where the change
 *                                                 feed's scans stand
 *   <p>{<p>feed}:facts                     hash   ticket ID -> JSON {deskId, createdAt,
 *                                                 updatedAt} the feed learnt of linked tickets
 *   <p>mirror:{<ticketId>}:state           hash   activityCursor, messageCursor,
 *                                                 messagesAnnounced, lastActivityAt,
 *                                                 lastAnswerAt, lastPolledAt, backoffStep,
 *                                                 status, settledAt, requesterEmail,
 *                                                 ticket, firstResponseAt, slackWriteAt, saved
 *   <p>mirror:{<ticketId>}:posts           hash   post key (item and thread, JSON) -> done |
 *                                                 retry | leased|token|expiresAt
 *   <p>mirror:{<ticketId>}:own             set    id:<messageId> and text:<digest> of messages
 *                                                 the app added from Slack (PEXPIRE 30 days)
 *   <p>fair:{<person>}                     hash   at (ms), t1, t2... tokens left in each of the
 *                                                 person's fair-share buckets (PEXPIRE: until
 *                                                 the slowest bucket is full again)
 *   <p>read:{<key>}                        string JSON {value, keptAt, expiresAt}: a read kept
 *                                                 for people a short time (PX its time to live)
 *   <p>{<p>channels}:modes                 hash   channel id -> auto | off, as agents set it
 *                                                 (`/ticket channel`); never expires
 *   <p>{<p>triage}:channels                hash   desk slug or * -> triage channel id (`/ticket
 *                                                 triage`); '' for a desk turned off while
 *                                                 DESK_TRIAGE_CHANNELS names one; never expires
 *   <p>{<p>homes}:ids                      hash   channel or user id -> the workspace (team id,
 *                                                 or enterprise id of an org-wide install) it
 *                                                 lives in; until that workspace uninstalls
 *
 * Every key a script touches is passed to it in KEYS, never built inside it (Redis's rule, which
 * proxies and Redis-compatible servers enforce), and all of one script's keys share one tag, so
 * the script runs on one Cluster node. That is why the outbox keeps its entries as fields of one
 * hash rather than a key each: an entry's id is made, or picked from the due set, inside the
 * script. Claims take a per-key tag: each claim script touches one key, so claims spread over
 * the Cluster. The budget and the schedule each take one tag because a take counts and records
 * in one step and a claim hands out many tickets in one step; the feed's two keys share one
 * because a scan reads and writes them together. The mirror's keys take the
 * ticket's ID as tag, so tickets spread over the Cluster; a closed ticket's mirror keys expire
 * a week after it closed (`forget`), others stay, like links.
 * Links never expire: a ticket's thread may come back to life months later. Lease and
 * remember times are compared with the caller's clock, not Redis's TIME, so replicas need
 * clocks in step to within a small part of a lease (NTP gives that). `redis-migrate.ts` moves
 * the keys of the earlier layout (`<p>{outbox}:...`) to these.
 */
import { InvalidStoreArgumentError } from './errors.ts';
import { resolveBudgetLimits } from './rate-budget-rules.ts';
import type { BudgetKeys } from './redis-budget.ts';
import { RedisRateBudget } from './redis-budget.ts';
import type { ChannelModeKeys } from './redis-channel-modes.ts';
import { RedisChannelModeStore } from './redis-channel-modes.ts';
import { RedisClaimStore } from './redis-claims.ts';
import type { FairShareKeys } from './redis-fair-share.ts';
import { RedisFairShareStore } from './redis-fair-share.ts';
import type { FeedKeys } from './redis-feed.ts';
import { RedisChangeFeedStore } from './redis-feed.ts';
import type { HomeKeys } from './redis-homes.ts';
import { RedisConversationHomes } from './redis-homes.ts';
import type { LinkKeys } from './redis-links.ts';
import { RedisThreadLinks } from './redis-links.ts';
import type { MirrorKeys } from './redis-mirror.ts';
import { RedisMirrorStore } from './redis-mirror.ts';
import type { OutboxKeys } from './redis-outbox.ts';
import { RedisOutbox } from './redis-outbox.ts';
import type { ScheduleKeys } from './redis-schedule.ts';
import { RedisPollSchedule } from './redis-schedule.ts';
import type { RedisClient } from './redis-script.ts';
import type { TriageKeys } from './redis-triage.ts';
import { RedisTriageChannels } from './redis-triage.ts';
import type { Now, RateBudgetLimits, Stores } from './types.ts';
import { DEFAULT_DEAD_LETTER_CAP } from './types.ts';

/** Options for the Redis backend. */
export interface RedisStoresOptions {
  /** A connected client (standalone, Sentinel or Cluster); the caller owns and closes it. */
  redis: RedisClient;
  /** Put before every key, e.g. `servicedesk:prod:`; must not hold `{` or `}`. */
  prefix: string;
  /** The clock in ms (default Date.now). */
  now?: Now;
  /** How many dead letters are kept (default 1,000). */
  deadLetterCap?: number;
  /** The platform's rate limits and the interactive reserve (default 100/min, 1,000/h, 20%). */
  budget?: Partial<RateBudgetLimits>;
  /** Triage channels that apply until set otherwise in Slack (desk slug or `*` -> channel id). */
  triageDefaults?: ReadonlyMap<string, string>;
}

/** Every key the Redis stores use under one prefix. */
export interface RedisKeys {
  claim(key: string): string;
  outbox: OutboxKeys;
  links: LinkKeys;
  budget: BudgetKeys;
  schedule: ScheduleKeys;
  clockSchedule: ScheduleKeys;
  mirror: MirrorKeys;
  feed: FeedKeys;
  fairShare: FairShareKeys;
  channelModes: ChannelModeKeys;
  triage: TriageKeys;
  homes: HomeKeys;
}

/** The key layout above, for one prefix. */
export function redisKeys(prefix: string): RedisKeys {
  // A brace in the prefix would become the hash tag of every key and undo the layout.
  if (/[{}]/.test(prefix)) {
    throw new InvalidStoreArgumentError('the Redis key prefix must not contain { or }');
  }
  const outbox = tagged(prefix, 'outbox');
  const links = tagged(prefix, 'links');
  const budget = tagged(prefix, 'budget');
  const poll = tagged(prefix, 'poll');
  const clock = tagged(prefix, 'clock');
  const feed = tagged(prefix, 'feed');
  return {
    claim: (key) => `${prefix}claim:{${key}}`,
    outbox: {
      seq: `${outbox}seq`,
      due: `${outbox}due`,
      leased: `${outbox}leased`,
      all: `${outbox}all`,
      entries: `${outbox}entries`,
      dead: `${outbox}dead`,
      enqueued: `${outbox}enqueued`,
      delivery: (deliveryKey) => `${outbox}delivery:${deliveryKey}`,
    },
    links: {
      thread: (member) => `${links}thread:${member}`,
      ticket: (ticketId) => `${links}ticket:${ticketId}`,
    },
    budget: { log: `${budget}log`, state: `${budget}state` },
    schedule: { due: `${poll}due`, leases: `${poll}leases`, holds: `${poll}holds` },
    clockSchedule: { due: `${clock}due`, leases: `${clock}leases`, holds: `${clock}holds` },
    mirror: {
      state: (ticketId) => `${prefix}mirror:{${ticketId}}:state`,
      posts: (ticketId) => `${prefix}mirror:{${ticketId}}:posts`,
      own: (ticketId) => `${prefix}mirror:{${ticketId}}:own`,
    },
    feed: { state: `${feed}state`, facts: `${feed}facts` },
    fairShare: {
      person: (person) => `${prefix}fair:{${person}}`,
      read: (key) => `${prefix}read:{${key}}`,
    },
    channelModes: { modes: `${tagged(prefix, 'channels')}modes` },
    triage: { channels: `${tagged(prefix, 'triage')}channels` },
    homes: { homes: `${tagged(prefix, 'homes')}ids` },
  };
}

// The start of every key of one group: the prefix, then the prefix and the group as the tag.
function tagged(prefix: string, group: string): string {
  return `${prefix}{${prefix}${group}}:`;
}

/** Every store in Redis, with their scripts registered on `redis`. */
export function createRedisStores(options: RedisStoresOptions): Stores {
  const keys = redisKeys(options.prefix);
  const clock = options.now ?? Date.now;
  // Whole milliseconds: scripts store times as integers.
  const now: Now = () => Math.floor(clock());
  const { redis } = options;
  return {
    claims: new RedisClaimStore(redis, keys.claim, now),
    outbox: new RedisOutbox(
      redis,
      keys.outbox,
      now,
      options.deadLetterCap ?? DEFAULT_DEAD_LETTER_CAP,
    ),
    links: new RedisThreadLinks(redis, keys.links, now),
    budget: new RedisRateBudget(redis, keys.budget, resolveBudgetLimits(options.budget), now),
    schedule: new RedisPollSchedule(redis, keys.schedule, now),
    clockSchedule: new RedisPollSchedule(redis, keys.clockSchedule, now),
    mirror: new RedisMirrorStore(redis, keys.mirror, now),
    feed: new RedisChangeFeedStore(redis, keys.feed),
    fairShare: new RedisFairShareStore(redis, keys.fairShare, now),
    channelModes: new RedisChannelModeStore(redis, keys.channelModes),
    triageChannels: new RedisTriageChannels(redis, keys.triage, options.triageDefaults),
    homes: new RedisConversationHomes(redis, keys.homes),
  };
}
