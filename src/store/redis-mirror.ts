/**
 * The mirror's per-ticket memory in Redis. Each ticket's keys share its ID as hash tag, so
 * tickets spread over a Cluster while one ticket's state, post claims and own messages sit on
 * one node. Cursors and times only move forward, so a poller whose claim lapsed while it was
 * slow cannot undo the work of the one that took over.
 */
import { randomUUID } from 'node:crypto';
import { requireDuration, requireKey, requireTime } from './argument-checks.ts';
import { StoreDataError } from './errors.ts';
import { OWN_MESSAGES_TTL_MS } from './mirror-retention.ts';
import type { RedisClient, RedisScript } from './redis-script.ts';
import { defineScript, replyArray, replyString, runCommand } from './redis-script.ts';
import type { HintScope, MirrorRecord, MirrorStore, Now, PostClaimOutcome } from './types.ts';

/** The keys of one ticket; all three carry the ticket's tag. */
export interface MirrorKeys {
  state(ticketId: string): string;
  posts(ticketId: string): string;
  own(ticketId: string): string;
}

const FORWARD_FIELDS = [
  'activityCursor',
  'messageCursor',
  'messagesAnnounced',
  'lastActivityAt',
  'lastAnswerAt',
  'lastPolledAt',
  'firstResponseAt',
] as const;

// KEYS state; ARGV the forward fields in order, then backoffStep, status, settledAt,
// requesterEmail, ticket ('' for none).
const SAVE_STATE = `
local fields = {${FORWARD_FIELDS.map((f) => `'${f}'`).join(', ')}}
for i, field in ipairs(fields) do
  local cur = tonumber(redis.call('HGET', KEYS[1], field))
  if not cur or tonumber(ARGV[i]) > cur then redis.call('HSET', KEYS[1], field, ARGV[i]) end
end
local n = #fields
redis.call('HSET', KEYS[1], 'backoffStep', ARGV[n + 1], 'status', ARGV[n + 2],
  'settledAt', ARGV[n + 3], 'requesterEmail', ARGV[n + 4], 'ticket', ARGV[n + 5], 'saved', '1')
return 1
`;

// KEYS state; ARGV ticket.
const KEEP_TICKET = `
redis.call('HSET', KEYS[1], 'ticket', ARGV[1])
return 1
`;

// KEYS state; ARGV at, field (slackWriteAt, hintedAt, messageHintedAt or announcedAt): a later
// time wins.
const NOTE_TIME = `
local cur = tonumber(redis.call('HGET', KEYS[1], ARGV[2]))
if not cur or tonumber(ARGV[1]) > cur then redis.call('HSET', KEYS[1], ARGV[2], ARGV[1]) end
return 1
`;

// KEYS posts; ARGV postKey, now, token, expiresAt. Values: 'done', 'retry' or
// 'leased|token|expiresAt'.
const CLAIM_POST = `
local cur = redis.call('HGET', KEYS[1], ARGV[1])
if cur == 'done' then return {'done'} end
if cur and cur ~= 'retry' then
  local exp = tonumber(string.match(cur, '|([^|]*)$'))
  if exp and exp > tonumber(ARGV[2]) then return {'busy'} end
end
redis.call('HSET', KEYS[1], ARGV[1], 'leased|' .. ARGV[3] .. '|' .. ARGV[4])
if cur then return {'claimed', '1'} end
return {'claimed', '0'}
`;

// KEYS posts; ARGV postKey, token, next ('done' or 'retry').
const FINISH_POST = `
local cur = redis.call('HGET', KEYS[1], ARGV[1])
if not cur then return 0 end
local token = string.match(cur, '^leased|([^|]*)|')
if token ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1
`;

/** The mirror store in Redis; see the key layout in `redis-stores.ts`. */
export class RedisMirrorStore implements MirrorStore {
  readonly #redis: RedisClient;
  readonly #keys: MirrorKeys;
  readonly #now: Now;
  readonly #saveState: RedisScript;
  readonly #noteTime: RedisScript;
  readonly #keepTicket: RedisScript;
  readonly #claimPost: RedisScript;
  readonly #finishPost: RedisScript;

  constructor(redis: RedisClient, keys: MirrorKeys, now: Now) {
    this.#redis = redis;
    this.#keys = keys;
    this.#now = now;
    this.#saveState = defineScript(redis, 'servicedeskMirrorSaveState', 1, SAVE_STATE);
    this.#noteTime = defineScript(redis, 'servicedeskMirrorNoteTime', 1, NOTE_TIME);
    this.#keepTicket = defineScript(redis, 'servicedeskMirrorKeepTicket', 1, KEEP_TICKET);
    this.#claimPost = defineScript(redis, 'servicedeskMirrorClaimPost', 1, CLAIM_POST);
    this.#finishPost = defineScript(redis, 'servicedeskMirrorFinishPost', 1, FINISH_POST);
  }

  async state(ticketId: string): Promise<MirrorRecord | undefined> {
    requireKey(ticketId, 'ticket ID');
    const hash = await runCommand('mirror.state', () =>
      this.#redis.hgetall(this.#keys.state(ticketId)),
    );
    if (Object.keys(hash).length === 0) return undefined;
    const number = (field: string): number => {
      const raw = hash[field];
      if (raw === undefined || raw === '') return 0;
      const value = Number(raw);
      if (!Number.isFinite(value))
        throw new StoreDataError(`stored mirror ${field} is not a number`);
      return value;
    };
    const text = (field: string): string | undefined => {
      const raw = hash[field];
      return raw === undefined || raw === '' ? undefined : raw;
    };
    return {
      activityCursor: number('activityCursor'),
      messageCursor: number('messageCursor'),
      messagesAnnounced: number('messagesAnnounced'),
      lastActivityAt: number('lastActivityAt'),
      lastAnswerAt: number('lastAnswerAt'),
      lastPolledAt: number('lastPolledAt'),
      firstResponseAt: number('firstResponseAt'),
      backoffStep: number('backoffStep'),
      status: text('status'),
      settledAt: text('settledAt') === undefined ? undefined : number('settledAt'),
      requesterEmail: text('requesterEmail'),
      ticket: text('ticket'),
      slackWriteAt: number('slackWriteAt'),
      hintedAt: number('hintedAt'),
      messageHintedAt: number('messageHintedAt'),
      announcedAt: number('announcedAt'),
    };
  }

  async saveState(ticketId: string, state: MirrorRecord): Promise<void> {
    requireKey(ticketId, 'ticket ID');
    const forward = FORWARD_FIELDS.map((field) => Math.max(0, Math.floor(state[field])));
    await this.#saveState(
      'mirror.saveState',
      [this.#keys.state(ticketId)],
      [
        ...forward,
        Math.max(0, Math.floor(state.backoffStep)),
        state.status ?? '',
        state.settledAt === undefined ? '' : Math.floor(state.settledAt),
        state.requesterEmail ?? '',
        state.ticket ?? '',
      ],
    );
  }

  async keepTicket(ticketId: string, ticket: string): Promise<void> {
    requireKey(ticketId, 'ticket ID');
    await this.#keepTicket('mirror.keepTicket', [this.#keys.state(ticketId)], [ticket]);
  }

  async noteSlackWrite(ticketId: string, atMs: number): Promise<void> {
    await this.#raiseTime('mirror.noteSlackWrite', ticketId, atMs, 'slackWriteAt');
  }

  async noteHint(ticketId: string, atMs: number, scope: HintScope = 'change'): Promise<void> {
    const field = scope === 'message' ? 'messageHintedAt' : 'hintedAt';
    await this.#raiseTime('mirror.noteHint', ticketId, atMs, field);
    // Raised after hintedAt: a look between the two reads the change as any hinted one.
    if (scope === 'announced')
      await this.#raiseTime('mirror.noteHint', ticketId, atMs, 'announcedAt');
  }

  async #raiseTime(op: string, ticketId: string, atMs: number, field: string): Promise<void> {
    requireKey(ticketId, 'ticket ID');
    const at = requireTime(Math.floor(atMs), 'atMs');
    await this.#noteTime(op, [this.#keys.state(ticketId)], [at, field]);
  }

  async claimPost(ticketId: string, postKey: string, leaseMs: number): Promise<PostClaimOutcome> {
    requireKey(ticketId, 'ticket ID');
    requireKey(postKey, 'post key');
    requireDuration(leaseMs, 'leaseMs');
    const op = 'mirror.claimPost';
    const now = this.#now();
    const token = randomUUID();
    const reply = replyArray(
      await this.#claimPost(op, [this.#keys.posts(ticketId)], [postKey, now, token, now + leaseMs]),
      op,
    );
    const state = replyString(reply[0], op);
    if (state === 'done') return { state };
    if (state === 'busy') return { state };
    return { state: 'claimed', token, retaken: replyString(reply[1], op) === '1' };
  }

  async completePost(ticketId: string, postKey: string, token: string): Promise<boolean> {
    return this.#finish('mirror.completePost', ticketId, postKey, token, 'done');
  }

  async releasePost(ticketId: string, postKey: string, token: string): Promise<boolean> {
    return this.#finish('mirror.releasePost', ticketId, postKey, token, 'retry');
  }

  async rememberOwn(ticketId: string, marks: readonly string[]): Promise<void> {
    requireKey(ticketId, 'ticket ID');
    if (marks.length === 0) return;
    for (const mark of marks) requireKey(mark, 'own-message mark');
    const key = this.#keys.own(ticketId);
    await runCommand('mirror.rememberOwn', () =>
      this.#redis
        .multi()
        .sadd(key, ...marks)
        .pexpire(key, OWN_MESSAGES_TTL_MS)
        .exec(),
    );
  }

  async isOwn(ticketId: string, marks: readonly string[]): Promise<boolean> {
    requireKey(ticketId, 'ticket ID');
    if (marks.length === 0) return false;
    const found = await runCommand('mirror.isOwn', () =>
      this.#redis.smismember(this.#keys.own(ticketId), ...marks),
    );
    return found.some((member) => member === 1);
  }

  async forget(ticketId: string, afterMs: number): Promise<void> {
    requireKey(ticketId, 'ticket ID');
    requireDuration(afterMs, 'afterMs');
    const keys = [this.#keys.state(ticketId), this.#keys.posts(ticketId), this.#keys.own(ticketId)];
    await runCommand('mirror.forget', () => {
      const multi = this.#redis.multi();
      for (const key of keys) multi.pexpire(key, afterMs);
      return multi.exec();
    });
  }

  async #finish(
    op: string,
    ticketId: string,
    postKey: string,
    token: string,
    next: 'done' | 'retry',
  ): Promise<boolean> {
    requireKey(ticketId, 'ticket ID');
    requireKey(postKey, 'post key');
    const reply = await this.#finishPost(op, [this.#keys.posts(ticketId)], [postKey, token, next]);
    return reply === 1;
  }
}
