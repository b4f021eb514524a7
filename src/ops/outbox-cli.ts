/**
 * `npm run outbox -- <command>`: the outbox's dead letters (entries that failed for good) from
 * the shell, and the move of Redis keys to the current layout. It reads REDIS_URL,
 * REDIS_CLUSTER and REDIS_KEY_PREFIX as the app does, and no other variable, so it runs where
 * the Slack and platform settings are not at hand.
 *
 * Exit codes: 0 done, 1 no dead letter with that id, 2 usage or settings, 3 refused (the
 * message says why), 4 Redis failed or did not answer.
 */
import { z } from 'zod';
import { loadDotEnv } from '../config.ts';
import { scrubSecrets } from '../logger.ts';
import type { DeadLetter, JsonValue, Outbox } from '../store/index.ts';
import { createRedisStores, migrateRedisKeys } from '../store/index.ts';
import { withTimeout } from '../timeout.ts';
import { createRedisClient } from './redis-client.ts';

const USAGE = `usage: npm run outbox -- <command>

  list [--limit N]   the newest dead letters (default 100), one a line
  show ID            one dead letter as JSON (secrets left out)
  retry ID           puts it back in the queue, due now; a worker runs it as a new entry,
                     and the person is told again should it fail again
  drop ID            deletes it
  migrate            moves the keys of a release before the prefixed hash tags to today's
                     names; stop every process of the deployment first

Reads REDIS_URL, REDIS_CLUSTER and REDIS_KEY_PREFIX (default sds:).
Exit codes: 0 done, 1 no dead letter with that id, 2 usage, 3 refused, 4 Redis failed.
`;

/** The process's exit codes. */
const EXIT = { ok: 0, notFound: 1, usage: 2, refused: 3, redisFailed: 4 } as const;

/** What was asked for on the command line. */
type OutboxCommand =
  | { name: 'list'; limit: number }
  | { name: 'show' | 'retry' | 'drop'; id: string }
  | { name: 'migrate' };

/** The Redis settings the CLI needs. */
interface RedisSettings {
  url: string;
  cluster: boolean;
  prefix: string;
}

// The app's own rules for these three (src/config.ts), without the variables it also needs.
const redisEnvSchema = z.object({
  REDIS_URL: z
    .string({
      error:
        'is not set: with no Redis the outbox lives in the app process and cannot be read from here',
    })
    .regex(/^rediss?:\/\//, { error: 'must be a redis:// or rediss:// URL' }),
  REDIS_CLUSTER: z
    .string()
    .optional()
    .transform((v) => v === '1' || v === 'true'),
  REDIS_KEY_PREFIX: z
    .string()
    .optional()
    .transform((v) => v ?? 'sds:')
    .pipe(
      z.string().regex(/^[A-Za-z0-9:_.-]{1,64}$/, {
        error: 'must be 1 to 64 letters, digits or : _ . - (e.g. sds: or sds:staging:)',
      }),
    ),
});

/** The command in `args`, or what is wrong with them. */
function parseCommand(
  args: readonly string[],
): { ok: true; command: OutboxCommand } | { ok: false; problem: string } {
  const [name, ...rest] = args;
  if (name === 'list') {
    if (rest.length === 0) return { ok: true, command: { name, limit: 100 } };
    const limit = Number(rest[1]);
    if (rest.length === 2 && rest[0] === '--limit' && Number.isSafeInteger(limit) && limit > 0) {
      return { ok: true, command: { name, limit } };
    }
    return { ok: false, problem: 'list takes only --limit N, N a whole number above 0' };
  }
  if (name === 'show' || name === 'retry' || name === 'drop') {
    const [id, ...extra] = rest;
    if (id && extra.length === 0) return { ok: true, command: { name, id } };
    return { ok: false, problem: `${name} takes one entry id` };
  }
  if (name === 'migrate') {
    if (rest.length === 0) return { ok: true, command: { name } };
    return { ok: false, problem: 'migrate takes no arguments' };
  }
  return { ok: false, problem: name ? `unknown command ${name}` : 'no command given' };
}

/** The Redis settings from the environment, or every problem with them. */
function readRedisSettings(
  env: NodeJS.ProcessEnv,
): { ok: true; settings: RedisSettings } | { ok: false; problems: string[] } {
  const parsed = redisEnvSchema.safeParse(env);
  if (!parsed.success) {
    // Never echo a value back: REDIS_URL may hold a password.
    return {
      ok: false,
      problems: parsed.error.issues.map((i) => `${String(i.path[0])} ${i.message}`),
    };
  }
  const e = parsed.data;
  return {
    ok: true,
    settings: { url: e.REDIS_URL, cluster: e.REDIS_CLUSTER, prefix: e.REDIS_KEY_PREFIX },
  };
}

/** The dead letters as a table: id, kind, failed at, attempts, last error, person. */
function formatDeadLetters(letters: readonly DeadLetter[], limit: number): string {
  if (letters.length === 0) return 'no dead letters\n';
  const rows = [
    ['ID', 'KIND', 'FAILED AT (UTC)', 'ATTEMPTS', 'LAST ERROR', 'PERSON'],
    ...letters.map((letter) => [
      letter.id,
      oneLine(letter.kind, 24),
      new Date(letter.failedAt).toISOString().slice(0, 19).replace('T', ' '),
      String(letter.attempts),
      oneLine(letter.error, 60),
      oneLine(personOf(letter.payload) ?? '-', 16),
    ]),
  ];
  const widths = rows[0]?.map((_, column) =>
    Math.max(...rows.map((row) => row[column]?.length ?? 0)),
  );
  const lines = rows.map((row) =>
    row
      .map((cell, column) =>
        column === row.length - 1 ? cell : cell.padEnd(widths?.[column] ?? 0),
      )
      .join('  '),
  );
  const more = letters.length === limit ? [`(the newest ${limit}; --limit N for more)`] : [];
  return `${[...lines, ...more].join('\n')}\n`;
}

/** The letter as JSON, with every field that looks like a credential replaced. */
function formatDeadLetter(letter: DeadLetter): string {
  return `${JSON.stringify(withoutSecrets(letter), null, 2)}\n`;
}

/** Runs one dead-letter command; returns the exit code. */
async function runOnOutbox(
  command: Exclude<OutboxCommand, { name: 'migrate' }>,
  outbox: Outbox,
  write: (text: string) => void,
  fail: (text: string) => void,
): Promise<number> {
  switch (command.name) {
    case 'list':
      write(formatDeadLetters(await outbox.deadLetters(command.limit), command.limit));
      return EXIT.ok;
    case 'show': {
      const letter = await outbox.deadLetter(command.id);
      if (!letter) return notFound(command.id, fail);
      write(formatDeadLetter(letter));
      return EXIT.ok;
    }
    case 'retry': {
      const outcome = await outbox.retryDeadLetter(command.id);
      if (outcome === 'not-found') return notFound(command.id, fail);
      if (outcome === 'superseded') {
        fail(
          `not retried: ${command.id}'s delivery key was queued again since it failed, so retrying would do the work twice; drop it instead\n`,
        );
        return EXIT.refused;
      }
      write(`${command.id} is queued again, due now; attempts start over\n`);
      return EXIT.ok;
    }
    case 'drop':
      if (!(await outbox.dropDeadLetter(command.id))) return notFound(command.id, fail);
      write(`${command.id} dropped\n`);
      return EXIT.ok;
  }
}

function notFound(id: string, fail: (text: string) => void): number {
  fail(`no dead letter ${id} (npm run outbox -- list shows them)\n`);
  return EXIT.notFound;
}

// The Slack user the entry was for: who acted, else who wrote.
function personOf(payload: JsonValue): string | undefined {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return undefined;
  const person = payload.actorUserId ?? payload.userId;
  return typeof person === 'string' ? person : undefined;
}

// A cell on one line, control characters (a terminal's escape sequences among them) removed.
function oneLine(text: string, max: number): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

// A private card's response_url lets anyone post as the app for 30 minutes: a credential.
const SECRET_FIELD = /url|token|secret|password|authorization|cookie/i;

function withoutSecrets<T>(value: T, depth = 0): T {
  if (value === null || typeof value !== 'object' || depth > 32) return value;
  if (Array.isArray(value)) return value.map((item) => withoutSecrets(item, depth + 1)) as T;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    copy[key] = SECRET_FIELD.test(key) ? '[redacted]' : withoutSecrets(item, depth + 1);
  }
  return copy as T;
}

async function main(args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const out = (text: string) => process.stdout.write(text);
  const err = (text: string) => process.stderr.write(text);
  const parsed = parseCommand(args);
  if (!parsed.ok) {
    err(`${parsed.problem}\n\n${USAGE}`);
    return EXIT.usage;
  }
  const read = readRedisSettings(env);
  if (!read.ok) {
    err(`${read.problems.join('\n')}\n`);
    return EXIT.usage;
  }
  const { url, cluster, prefix } = read.settings;
  const password = URL.canParse(url) ? decodeURIComponent(new URL(url).password) : '';
  const scrub = (text: string) => scrubSecrets(text, [url, password].filter(Boolean));
  const redis = createRedisClient(url, {
    cluster,
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    connectTimeoutMs: 5_000,
    noReconnect: true,
  });
  // A refused connection is reported once, below, with the client's own words for it (the
  // rejected connect only says the connection closed).
  let lastError: Error | undefined;
  redis.on('error', (error: Error) => {
    lastError = error;
  });
  try {
    await withTimeout('Redis', 10_000, redis.connect());
    const command = parsed.command;
    if (command.name === 'migrate') {
      const report = await migrateRedisKeys({ redis, prefix });
      out(
        `moved ${report.moved} keys, ${report.entries} queued entries and ${report.deadLetters} dead letters\n`,
      );
      if (report.kept.length === 0) return EXIT.ok;
      err(
        scrub(
          `kept ${report.kept.length} old keys whose new names are taken (a process of the new version ran first):\n${report.kept.join('\n')}\n`,
        ),
      );
      return EXIT.refused;
    }
    const { outbox } = createRedisStores({ redis, prefix });
    return await withTimeout(
      'the outbox',
      30_000,
      runOnOutbox(
        command,
        outbox,
        (t) => out(scrub(t)),
        (t) => err(scrub(t)),
      ),
    );
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const cause = lastError && lastError.message !== message ? ` (${lastError.message})` : '';
    err(scrub(`Redis failed: ${message}${cause}\n`));
    return EXIT.redisFailed;
  } finally {
    // Disconnecting a connection that already ended holds the process 2 s for nothing.
    if (redis.status !== 'end') redis.disconnect();
  }
}

loadDotEnv();
process.exitCode = await main(process.argv.slice(2), process.env);
