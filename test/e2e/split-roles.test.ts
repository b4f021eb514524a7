/**
 * One process per role on one Redis: a web process answers Slack and queues what people write
 * (running only the modal submissions it waits on); a worker process runs the queue.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultIds } from '../../tools/slack-double/index.ts';
import { eventually } from '../support/eventually.ts';
import { modalOpenedBy, type Stack, startStack, ticketsOf } from '../support/stack.ts';

const { alice, itHelp } = defaultIds;

describe('a web process and a worker process', () => {
  let stack: Stack;
  beforeAll(async () => {
    // Workers poll only once a minute: a prompt filing can only come from the outbox's wake-up.
    stack = await startStack({ role: 'web', workerIdleMs: 60_000 });
  });
  afterAll(async () => {
    await stack.close();
  });

  function answerIn(channel: string, threadTs: string) {
    return (stack.double.workspace.thread(channel, threadTs) ?? []).find((m) =>
      m.text?.includes('was filed'),
    );
  }

  it('files what the web process queued once a worker runs, and each new message at once', async () => {
    const dm = stack.double.workspace.openIm(alice);
    const first = await stack.driver.userPosts({
      userId: alice,
      channelId: dm,
      text: 'Split roles: the VPN drops every hour',
    });
    await sleep(300);
    expect(
      ticketsOf(stack, 'alice@acme.example').filter((t) => t.title.startsWith('Split')),
    ).toEqual([]);
    expect((await stack.app.stores.outbox.stats()).depth).toBe(1);

    const worker = await stack.addReplica('worker');
    try {
      await eventually(() => answerIn(dm, first.ts), 5_000, 'the queued message filed');
      const second = await stack.driver.userPosts({
        userId: alice,
        channelId: dm,
        text: 'Split roles: the printer is offline',
      });
      await eventually(() => answerIn(dm, second.ts), 5_000, 'the new message filed');
      expect(
        ticketsOf(stack, 'alice@acme.example')
          .filter((t) => t.title.startsWith('Split roles'))
          .map((t) => t.title),
      ).toEqual(['Split roles: the VPN drops every hour', 'Split roles: the printer is offline']);
    } finally {
      await worker.stop();
    }
  });

  it('files a modal submitted to the web process at once, with no worker running', async () => {
    const view = await modalOpenedBy(stack, alice, () =>
      stack.driver.slashCommand({ userId: alice, channelId: itHelp, text: '' }),
    );
    const result = await stack.driver.viewSubmission({
      viewId: view.id,
      userId: alice,
      values: { title_input: 'Split roles: monitor flickers' },
    });
    expect(result.body).toMatchObject({ response_action: 'clear' });
    expect(
      ticketsOf(stack, 'alice@acme.example').filter(
        (t) => t.title === 'Split roles: monitor flickers',
      ),
    ).toHaveLength(1);
  });

  it('shows the platform’s 422 on its field for a modal submitted to the web process', async () => {
    const view = await modalOpenedBy(stack, alice, () =>
      stack.driver.slashCommand({ userId: alice, channelId: itHelp, text: '' }),
    );
    stack.emulator.model.removeDesk('acme', 'facilities');
    const result = await stack.driver.viewSubmission({
      viewId: view.id,
      userId: alice,
      values: { title_input: 'Split roles: broken chair', desk_select: 'facilities' },
    });
    expect(result.responseAction).toBe('errors');
    expect(result.body).toMatchObject({ errors: { desk: expect.stringContaining('facilities') } });
  });

  it('a worker process serves its routes but takes no Slack requests', async () => {
    const worker = await stack.addReplica('worker');
    try {
      const base = `http://127.0.0.1:${worker.port}`;
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      expect((await fetch(`${base}/healthz`, { method: 'POST' })).status).toBe(405);
      const slack = await fetch(`${base}/slack/events`, { method: 'POST', body: '{}' });
      expect(slack.status).toBe(404);
    } finally {
      await worker.stop();
    }
  });
});
