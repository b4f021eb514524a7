/**
 * `npm run outbox`: the CLI run as a process against a real Redis, under a key prefix of this
 * file's own, each run bounded to 15 s.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonValue, Stores } from '../../src/store/index.ts';
import { createRedisStores } from '../../src/store/index.ts';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const RUN_PREFIX = `test:outbox-cli:${randomUUID()}:`;
const CLI = new URL('../../src/ops/outbox-cli.ts', import.meta.url).pathname;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function runCli(args: string[], env: Record<string, string | undefined>): Promise<Run> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      // Only what the CLI reads, so nothing of this process's environment leaks into it.
      { env: { PATH: process.env.PATH, ...env }, timeout: 15_000 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') reject(error);
        else resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
      },
    );
  });
}

let redis: Redis | undefined;
let namespaces = 0;

/** Stores under a fresh prefix, and the CLI's environment for it. */
function namespace(): { stores: Stores; env: Record<string, string> } {
  if (!redis) throw new Error('Redis is not open');
  namespaces += 1;
  const prefix = `${RUN_PREFIX}${namespaces}:`;
  return {
    stores: createRedisStores({ redis, prefix }),
    env: { REDIS_URL, REDIS_KEY_PREFIX: prefix },
  };
}

/** Enqueues an entry and fails it for good; returns its id. */
async function deadLetter(
  stores: Stores,
  deliveryKey: string,
  kind: string,
  payload: JsonValue,
  error: string,
): Promise<string> {
  await stores.outbox.enqueue(deliveryKey, kind, payload);
  const entry = await stores.outbox.reserve('test', 30_000);
  if (!entry || entry.deliveryKey !== deliveryKey) throw new Error('expected the new entry');
  await stores.outbox.fail(entry, error);
  return entry.id;
}

beforeAll(async () => {
  redis = new Redis(REDIS_URL);
  await redis.ping();
});

afterAll(async () => {
  if (!redis) return;
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${RUN_PREFIX}*`, 'COUNT', 1000);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
  await redis.quit();
});

describe('npm run outbox', () => {
  it('list prints a row per dead letter: id, kind, failed at, attempts, last error, person', async () => {
    const { stores, env } = namespace();
    const first = await deadLetter(
      stores,
      'view:V1',
      'create_ticket',
      { actorUserId: 'U0ALICE', requesterUserIds: ['U0ALICE'] },
      'VALIDATION_ERROR: title: Field required',
    );
    const second = await deadLetter(
      stores,
      'ev:A1:T1:Ev2',
      'add_message',
      { userId: 'U0BOB', body: 'the printer\nis on fire' },
      'NOT_FOUND: ticket IT-9\nwas deleted',
    );
    const run = await runCli(['list'], env);
    expect(run.code).toBe(0);
    const [header, ...rows] = run.stdout.trimEnd().split('\n');
    expect(header?.split(/\s{2,}/)).toEqual([
      'ID',
      'KIND',
      'FAILED AT (UTC)',
      'ATTEMPTS',
      'LAST ERROR',
      'PERSON',
    ]);
    expect(rows.map((row) => row.split(/\s{2,}/))).toEqual([
      [
        second,
        'add_message',
        expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
        '1',
        'NOT_FOUND: ticket IT-9 was deleted',
        'U0BOB',
      ],
      [
        first,
        'create_ticket',
        expect.any(String),
        '1',
        'VALIDATION_ERROR: title: Field required',
        'U0ALICE',
      ],
    ]);
  });

  it('list says so when there are no dead letters', async () => {
    const run = await runCli(['list'], namespace().env);
    expect(run).toMatchObject({ code: 0, stdout: 'no dead letters\n' });
  });

  it('show prints the dead letter as JSON with its credentials left out', async () => {
    const { stores, env } = namespace();
    const payload = {
      ticketId: 'IT-4',
      actorUserId: 'U0ALICE',
      request: { kind: 'resolve' },
      card: { kind: 'ephemeral', responseUrl: 'https://hooks.slack.com/actions/T1/123/s3cr3t' },
    };
    const id = await deadLetter(stores, 'act:1', 'update_ticket', payload, 'FORBIDDEN: no');
    const run = await runCli(['show', id], env);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      id,
      deliveryKey: 'act:1',
      kind: 'update_ticket',
      payload: { ...payload, card: { kind: 'ephemeral', responseUrl: '[redacted]' } },
      attempts: 1,
      createdAt: expect.any(Number),
      failedAt: expect.any(Number),
      error: 'FORBIDDEN: no',
    });
    expect(run.stdout).not.toContain('s3cr3t');
  });

  it('retry puts the entry back in the queue, due now, with its attempts reset', async () => {
    const { stores, env } = namespace();
    const id = await deadLetter(stores, 'view:V1', 'create_ticket', { n: 1 }, 'HTTP 422');
    const run = await runCli(['retry', id], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(id);
    expect(await stores.outbox.deadLetters()).toEqual([]);
    expect(await stores.outbox.reserve('worker', 30_000)).toMatchObject({
      id,
      kind: 'create_ticket',
      payload: { n: 1 },
      attempts: 0,
    });
  });

  it('retry refuses, exiting 3, a dead letter whose delivery key was queued again', async () => {
    const { stores, env } = namespace();
    await stores.outbox.enqueue('ev:1', 'add_message', {}, { rememberMs: 1 });
    const entry = await stores.outbox.reserve('test', 30_000);
    if (!entry) throw new Error('expected the entry');
    await stores.outbox.fail(entry, 'HTTP 404');
    // Remembered for 1 ms, so the same key makes a new entry at once.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await stores.outbox.enqueue('ev:1', 'add_message', {});
    const run = await runCli(['retry', entry.id], env);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('queued again');
    expect(await stores.outbox.deadLetter(entry.id)).toBeDefined();
  });

  it('drop deletes the dead letter', async () => {
    const { stores, env } = namespace();
    const id = await deadLetter(stores, 'view:V1', 'create_ticket', {}, 'HTTP 422');
    const run = await runCli(['drop', id], env);
    expect(run.code).toBe(0);
    expect(await stores.outbox.deadLetter(id)).toBeUndefined();
  });

  it.each(['show', 'retry', 'drop'])(
    '%s exits 1 for an id that is no dead letter',
    async (command) => {
      const run = await runCli([command, '000000000042'], namespace().env);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('no dead letter 000000000042');
    },
  );

  it.each([
    [[]],
    [['resend', '1']],
    [['show']],
    [['drop', '1', '2']],
    [['list', '--limit', 'all']],
  ])('exits 2 with the usage for the arguments %j', async (args) => {
    const run = await runCli(args, namespace().env);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('usage: npm run outbox -- <command>');
  });

  it('migrate moves the keys of the earlier layout and says how many', async () => {
    const { stores, env } = namespace();
    const prefix = env.REDIS_KEY_PREFIX;
    await redis?.set(`${prefix}{links}:thread:["C1","1.2"]`, 'IT-1');
    await redis?.zadd(`${prefix}{links}:ticket:IT-1`, 1_700_000_000_000, '["C1","1.2"]');
    const run = await runCli(['migrate'], env);
    expect(run).toMatchObject({ code: 0, stdout: expect.stringContaining('moved 2 keys') });
    expect(await stores.links.ticketForThread('C1', '1.2')).toBe('IT-1');
  });

  it('exits 2 and says why without REDIS_URL', async () => {
    const run = await runCli(['list'], {});
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^REDIS_URL is not set/);
  });

  it('exits 4 when Redis does not answer, without printing its password', async () => {
    const run = await runCli(['list'], { REDIS_URL: 'redis://:hunter2-secret@127.0.0.1:1' });
    expect(run.code).toBe(4);
    expect(run.stderr).toContain('Redis failed');
    expect(run.stdout + run.stderr).not.toContain('hunter2-secret');
  });
});
