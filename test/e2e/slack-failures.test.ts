/**
 * Slack failing as Slack does (429 with Retry-After, 500s), with the real app over HTTP, the
 * Slack double and the emulator: every post is made once, and a person's modal never waits
 * behind background work.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { defaultIds } from '../../tools/slack-double/index.ts';
import { eventually } from '../support/eventually.ts';
import { type Stack, startStack, ticketsOf } from '../support/stack.ts';

const { alice, bob, itHelp } = defaultIds;

describe('when Slack answers 429 or 500', () => {
  let stack: Stack;
  afterEach(async () => {
    await stack?.close();
  });

  /** Bob files by direct message; returns his DM and the message's ts. */
  async function fileByDm(text: string) {
    const dm = stack.double.workspace.openIm(bob);
    const sent = await stack.driver.userPosts({ userId: bob, channelId: dm, text });
    return { dm, ts: sent.ts };
  }

  const confirmations = (dm: string, ts: string) =>
    (stack.double.workspace.thread(dm, ts) ?? []).filter((m) => m.text?.includes('was filed'));

  it('posts one confirmation when Slack answers its post with 429, after the Retry-After', async () => {
    stack = await startStack();
    stack.double.failNext('chat.postMessage', 'ratelimited', { retryAfterSec: 2 });
    const started = Date.now();
    const { dm, ts } = await fileByDm('Laptop fan is loud');
    await eventually(() => confirmations(dm, ts).length > 0, 10_000, 'the confirmation');
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
    // Long enough for a second post to show up, were there one.
    await new Promise((r) => setTimeout(r, 500));
    expect(confirmations(dm, ts)).toHaveLength(1);
  });

  it('keeps a 70-second Retry-After on a direct message’s answer and posts one message naming the ticket', async () => {
    stack = await startStack();
    stack.double.failNext('chat.postMessage', 'ratelimited', { retryAfterSec: 70 });
    const { dm } = await fileByDm('Webcam shows a black picture');
    const limited = await eventually(
      () => stack.double.callsTo('chat.postMessage').find((c) => c.injected),
      10_000,
      'the limited post',
    );
    const ticket = await eventually(
      () => ticketsOf(stack, 'bob@acme.example').find((t) => t.title.startsWith('Webcam')),
      5_000,
      'the ticket',
    );
    const naming = () =>
      stack.double.workspace.messages(dm).filter((m) => JSON.stringify(m).includes(ticket.id));
    await eventually(() => naming().some((m) => m.text?.includes('was filed')), 80_000, 'the card');
    const inWindow = stack.double
      .callsTo('chat.postMessage')
      .filter((c) => c.at > limited.at && c.at < limited.at + 70_000);
    expect(inWindow).toEqual([]);
    await new Promise((r) => setTimeout(r, 500));
    expect(naming()).toHaveLength(1);
  }, 90_000);

  it('posts one confirmation through seven 500s in a row', async () => {
    stack = await startStack();
    stack.double.failNext('chat.postMessage', 'internal_error', { status: 500, times: 7 });
    const { dm, ts } = await fileByDm('Docking station not detected');
    await eventually(() => confirmations(dm, ts).length > 0, 20_000, 'the confirmation');
    await new Promise((r) => setTimeout(r, 500));
    expect(confirmations(dm, ts)).toHaveLength(1);
    const failed = stack.double.callsTo('chat.postMessage').filter((c) => c.injected);
    expect(failed).toHaveLength(7);
  });

  it('turns the delay notice into the confirmation when Slack answers 500s to the post and then to the change', async () => {
    stack = await startStack();
    // The first attempt's post and its one quick retry fail; the notice then goes through.
    stack.double.failNext('chat.postMessage', 'internal_error', { status: 500, times: 2 });
    stack.double.failNext('chat.update', 'internal_error', { status: 500, times: 2 });
    const { dm } = await fileByDm('Headset crackles on calls');
    const ticket = await eventually(
      () => ticketsOf(stack, 'bob@acme.example').find((t) => t.title.startsWith('Headset')),
      5_000,
      'the ticket',
    );
    const naming = () =>
      stack.double.workspace.messages(dm).filter((m) => JSON.stringify(m).includes(ticket.id));
    await eventually(
      () => naming().some((m) => m.text?.includes('was filed')),
      15_000,
      'the confirmation',
    );
    await new Promise((r) => setTimeout(r, 500));
    expect(naming()).toHaveLength(1);
    expect(stack.double.callsTo('chat.update').filter((c) => c.injected)).toHaveLength(2);
  });

  it('posts no delay notice when Slack answers it with 429 after 500s on the confirmation, and the confirmation is the one message naming the ticket', async () => {
    stack = await startStack();
    stack.double.failNext('chat.postMessage', 'internal_error', { status: 500, times: 2 });
    stack.double.failNext('chat.postMessage', 'ratelimited', { retryAfterSec: 2 });
    const { dm } = await fileByDm('Trackpad clicks by itself');
    const ticket = await eventually(
      () => ticketsOf(stack, 'bob@acme.example').find((t) => t.title.startsWith('Trackpad')),
      5_000,
      'the ticket',
    );
    const naming = () =>
      stack.double.workspace.messages(dm).filter((m) => JSON.stringify(m).includes(ticket.id));
    await eventually(
      () => naming().some((m) => m.text?.includes('was filed')),
      15_000,
      'the confirmation',
    );
    await new Promise((r) => setTimeout(r, 500));
    expect(naming()).toHaveLength(1);
    expect(stack.logs.filter((line) => line.includes('outbox-notify'))).toEqual([]);
  });

  it('posts one confirmation with three replicas taking turns through a 429', async () => {
    stack = await startStack();
    await stack.addReplica();
    await stack.addReplica();
    stack.double.failNext('chat.postMessage', 'ratelimited', { retryAfterSec: 2, times: 2 });
    const { dm, ts } = await fileByDm('Keyboard letters fading');
    await eventually(() => confirmations(dm, ts).length > 0, 15_000, 'the confirmation');
    await new Promise((r) => setTimeout(r, 1_000));
    expect(confirmations(dm, ts)).toHaveLength(1);
  });

  it('opens a person’s modal at once while a background post waits out a 20-second 429', async () => {
    stack = await startStack();
    stack.double.failNext('chat.postMessage', 'ratelimited', { retryAfterSec: 20 });
    await fileByDm('Monitor cable missing');
    await eventually(
      () => stack.double.callsTo('chat.postMessage').some((c) => c.injected),
      5_000,
      'the background post limited',
    );
    const started = Date.now();
    const command = await stack.driver.slashCommand({ userId: alice, channelId: itHelp });
    expect(command.status).toBe(200);
    await eventually(
      () => stack.double.workspace.modalStack(alice).at(-1)?.callback_id === 'create_ticket',
      3_000,
      'the modal',
    );
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('tells the person privately, with their words, when Slack will not open their modal', async () => {
    stack = await startStack();
    stack.double.failNext('views.open', 'ratelimited', { retryAfterSec: 30 });
    const command = await stack.driver.slashCommand({
      userId: alice,
      channelId: itHelp,
      text: 'Printer on 3rd floor jams',
    });
    expect(command.status).toBe(200);
    const told = await eventually(
      () =>
        stack.double.responseUrlPosts.find((p) => JSON.stringify(p.body).includes('Slack is busy')),
      5_000,
      'the private notice',
    );
    expect(JSON.stringify(told.body)).toContain('Printer on 3rd floor jams');
    expect(JSON.stringify(told.body)).toContain('about 30 seconds');
  });
});
