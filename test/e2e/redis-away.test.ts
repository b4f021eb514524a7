/**
 * Redis going away under a running app: a redis-server of the test's own, killed mid-run, so
 * the app's connection is reconnecting (not closed) when Slack's deliveries arrive.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultIds } from '../../tools/slack-double/index.ts';
import { eventually } from '../support/eventually.ts';
import { type Stack, startStack } from '../support/stack.ts';

const { alice } = defaultIds;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  await eventually(
    () =>
      new Promise<boolean>((resolve) => {
        const probe = createServer();
        probe.once('error', () => resolve(true));
        probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(false)));
      }),
    10_000,
    'redis-server listening',
  );
  return child;
}

describe('when Redis goes away', () => {
  let stack: Stack | undefined;
  let redis: ChildProcess | undefined;
  afterEach(async () => {
    redis?.kill('SIGKILL');
    await stack?.close();
    vi.restoreAllMocks();
  });

  it('answers a direct message 500 well inside Slack’s 3 seconds, and logs through pino', async () => {
    const port = await freePort();
    redis = await startRedis(port);
    stack = await startStack({ redisUrl: `redis://127.0.0.1:${port}` });
    const printed = vi.spyOn(console, 'error');
    redis.kill('SIGKILL');
    await new Promise((r) => redis?.once('exit', r));
    const dm = stack.double.workspace.openIm(alice);
    const acks: number[] = [];
    for (const text of ['Redis is gone', 'Still gone', 'Gone again']) {
      const sent = await stack.driver.userPosts(
        { userId: alice, channelId: dm, text },
        { simulateSlackRetries: false },
      );
      expect(sent.delivery?.status).toBe(500);
      acks.push(sent.delivery?.ackMs ?? Number.POSITIVE_INFINITY);
    }
    // The bound is 1 s per Redis command; the margin is for a loaded machine.
    expect(Math.max(...acks)).toBeLessThan(2_500);
    expect(stack.logs.some((l) => l.includes('Redis is not answering'))).toBe(true);
    expect(printed.mock.calls.some((call) => String(call[0]).includes('[ioredis]'))).toBe(false);
  });
});
