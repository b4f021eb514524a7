/**
 * Moves the keys of the earlier layout to today's (see `redis-stores.ts`). The outbox, links,
 * budget and schedule keys were tagged `<p>{outbox}:...`, so every deployment sharing a Cluster
 * put them on the same four slots; they are now `<p>{<p>outbox}:...`, and the outbox keeps its
 * entries and dead letters as fields of one hash. Claims and mirror keys did not change.
 *
 * Run it with every process of the deployment stopped: old and new processes use different
 * keys, so one would not see what the other queued. It may be run again: it moves what is
 * left, recognises what an interrupted run already moved, and never overwrites a key the new
 * layout already holds (that key is reported and the old one kept).
 */
import { requireKey } from './argument-checks.ts';
import {
  InvalidStoreArgumentError,
  StoreUnavailableError,
  TransactionAbortedError,
  toStoreError,
} from './errors.ts';
import { decodeDeadLetter } from './json-codec.ts';
import { globEscape, scanAll } from './redis-scan.ts';
import type { RedisClient } from './redis-script.ts';
import { runCommand } from './redis-script.ts';
import { redisKeys } from './redis-stores.ts';
import { DAY_MS } from './types.ts';

/** What a migration did. */
export interface RedisMigrationReport {
  /** Keys moved to their new names, with their time to live. */
  moved: number;
  /** Queued outbox entries rewritten as fields of the entries hash. */
  entries: number;
  /** Dead letters rewritten the same way. */
  deadLetters: number;
  /** Old keys (or dead letters, as `<key>#<id>`) left because the new layout holds another. */
  kept: string[];
}

/** The groups whose tag changed. */
const GROUPS = ['outbox', 'links', 'budget', 'poll'] as const;

/** Moves the keys of the earlier layout under `prefix` to today's names. */
export async function migrateRedisKeys(options: {
  redis: RedisClient;
  prefix: string;
}): Promise<RedisMigrationReport> {
  const { redis, prefix } = options;
  requireKey(prefix, 'prefix');
  // Validates the prefix the way the stores do.
  const entries = redisKeys(prefix).outbox.entries;
  const report: RedisMigrationReport = { moved: 0, entries: 0, deadLetters: 0, kept: [] };
  for (const group of GROUPS) {
    const from = `${prefix}{${group}}:`;
    const to = `${prefix}{${prefix}${group}}:`;
    if (from === to) throw new InvalidStoreArgumentError('the prefix has no old layout to move');
    for (const key of await scanAll(redis, `${globEscape(from)}*`)) {
      const rest = key.slice(from.length);
      if (group === 'outbox' && rest.startsWith('entry:')) {
        await moveEntry(redis, key, rest.slice('entry:'.length), entries, report);
      } else if (group === 'outbox' && rest === 'dead') {
        await moveDeadLetters(redis, key, `${to}dead`, entries, report);
      } else {
        await moveKey(redis, key, `${to}${rest}`, report);
      }
    }
  }
  return report;
}

// DUMP and RESTORE rather than RENAME: on a Cluster the two names sit on different slots.
async function moveKey(
  redis: RedisClient,
  from: string,
  to: string,
  report: RedisMigrationReport,
): Promise<void> {
  const op = 'migrate.moveKey';
  const [dump, ttl] = await runCommand(op, () =>
    Promise.all([redis.dumpBuffer(from), redis.pttl(from)]),
  );
  if (dump === null) return;
  const restored = await runCommand(op, () =>
    redis.restore(to, Math.max(0, ttl), dump).then(
      () => true,
      (error: unknown) => {
        if (error instanceof Error && error.message.startsWith('BUSYKEY')) return false;
        throw error;
      },
    ),
  );
  if (!restored) {
    // A name already taken by the very same value is an interrupted run's move.
    const there = await runCommand(op, () => redis.dumpBuffer(to));
    if (!there || !dump.equals(there)) {
      report.kept.push(from);
      return;
    }
  }
  await runCommand(op, () => redis.del(from));
  report.moved += 1;
}

async function moveEntry(
  redis: RedisClient,
  from: string,
  id: string,
  entries: string,
  report: RedisMigrationReport,
): Promise<void> {
  const op = 'migrate.moveEntry';
  const fields = await runCommand(op, () => redis.hgetall(from));
  if (fields.deliveryKey === undefined) return;
  const held = await runCommand(op, () => redis.hget(entries, `${id}:deliveryKey`));
  if (held !== null && held !== fields.deliveryKey) {
    report.kept.push(from);
    return;
  }
  const named = Object.entries(fields).flatMap(([field, value]) => [`${id}:${field}`, value]);
  await runCommand(op, () => redis.hset(entries, ...named));
  await runCommand(op, () => redis.del(from));
  report.entries += 1;
}

// The old list held each letter as JSON, newest first; the new one holds ids in that order.
async function moveDeadLetters(
  redis: RedisClient,
  from: string,
  to: string,
  entries: string,
  report: RedisMigrationReport,
): Promise<void> {
  const op = 'migrate.moveDeadLetters';
  const texts = await runCommand(op, () => redis.lrange(from, 0, -1));
  let kept = 0;
  for (const text of texts) {
    const letter = decodeDeadLetter(text);
    const held = await runCommand(op, () =>
      redis.hmget(entries, `${letter.id}:deliveryKey`, `${letter.id}:failedAt`),
    );
    if (held[0] !== null) {
      // Moved by an interrupted run, or another entry has the id: leave either alone.
      if (held[0] !== letter.deliveryKey || held[1] === null) {
        report.kept.push(`${from}#${letter.id}`);
        kept += 1;
      }
      continue;
    }
    const f = `${letter.id}:`;
    const fields = {
      [`${f}deliveryKey`]: letter.deliveryKey,
      [`${f}kind`]: letter.kind,
      [`${f}payload`]: JSON.stringify(letter.payload),
      [`${f}attempts`]: String(letter.attempts),
      [`${f}createdAt`]: String(letter.createdAt),
      [`${f}failedAt`]: String(letter.failedAt),
      [`${f}error`]: letter.error,
      // The old letters did not keep it; a retried one is remembered for the default day.
      [`${f}rememberMs`]: String(DAY_MS),
    };
    // Both keys share the outbox's tag, so one transaction writes the letter and lists it.
    const replies = await runCommand(op, () =>
      redis.multi().hset(entries, fields).rpush(to, letter.id).exec(),
    );
    const failed = replies?.find(([error]) => error)?.[0];
    if (failed) throw toStoreError(op, failed);
    if (!replies) throw new StoreUnavailableError(op, { cause: new TransactionAbortedError() });
    report.deadLetters += 1;
  }
  if (kept === 0) await runCommand(op, () => redis.del(from));
}
