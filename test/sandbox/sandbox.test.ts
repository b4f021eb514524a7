/** Starting and stopping the sandbox: its store, and what it leaves behind. */
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { SANDBOX_TRIAGE_CHANNEL, startSandbox } from '../../tools/sandbox/sandbox.ts';
import { defaultIds } from '../../tools/slack-double/index.ts';
import { eventually } from '../support/eventually.ts';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('the sandbox', () => {
  it('runs on the embedded in-memory store unless given a Redis', async () => {
    const sandbox = await startSandbox();
    try {
      expect(sandbox.store).toBe('memory');
      expect(sandbox.redisPrefix).toBeUndefined();
    } finally {
      await sandbox.close();
    }
  });

  it('files through a Redis store when given one, and deletes its own keys on close', async () => {
    const sandbox = await startSandbox({ redisUrl: REDIS_URL, eventRetryDelaysMs: [0, 200, 400] });
    const prefix = sandbox.redisPrefix;
    try {
      expect(sandbox.store).toBe('redis');
      const dm = sandbox.double.workspace.openIm(defaultIds.alice);
      await sandbox.driver.userPosts({
        userId: defaultIds.alice,
        channelId: dm,
        text: 'The office wifi asks for a password again',
      });
      await eventually(
        () =>
          sandbox.emulator.model
            .listTickets('acme', { page: 1, pageSize: 1_000, requesterEmail: 'alice@acme.example' })
            .items.some((t) => t.title.startsWith('The office wifi asks')),
        10_000,
        'the ticket filed through the Redis outbox',
      );
    } finally {
      await sandbox.close();
    }
    const redis = new Redis(REDIS_URL);
    try {
      const [, keys] = await redis.scan('0', 'MATCH', `${prefix}*`, 'COUNT', 1_000);
      expect(keys).toEqual([]);
    } finally {
      await redis.quit();
    }
  });

  it('gives a ticket filed by a DM (on no desk) and one on the subdesk it-hardware a card in #it-triage', async () => {
    const sandbox = await startSandbox();
    try {
      // The feed marks when it first saw #it-triage; tickets before that get no card.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const dm = sandbox.double.workspace.openIm(defaultIds.alice);
      await sandbox.driver.userPosts({
        userId: defaultIds.alice,
        channelId: dm,
        text: 'Something odd happens when I log in',
      });
      const hardware = sandbox.emulator.model.createTicket('acme', {
        title: 'Extra monitor',
        desk_id: 'it-hardware',
        requester_email: 'bob@acme.example',
        channel: 'portal',
      });
      const cardOf = (title: string) =>
        sandbox.double.workspace
          .messages(SANDBOX_TRIAGE_CHANNEL)
          .find(
            (m) => m.metadata?.event_type === 'triage_card' && JSON.stringify(m).includes(title),
          );
      await eventually(() => cardOf(hardware.title), 15_000, 'the it-hardware ticket’s card');
      await eventually(() => cardOf('Something odd happens'), 15_000, 'the DM ticket’s card');
    } finally {
      await sandbox.close();
    }
  });

  it('can be closed twice', async () => {
    const sandbox = await startSandbox();
    await sandbox.close();
    await expect(sandbox.close()).resolves.toBeUndefined();
  });
});
