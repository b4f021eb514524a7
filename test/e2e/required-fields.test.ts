/**
 * A filing without a form on a desk that requires fields: the platform refuses it (422 at
 * `custom_fields.<key>`), so nothing is filed; the person is asked privately, with a button that
 * opens a form keeping their words, and submitting it files exactly one ticket with the fields.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STANDARD_CUSTOM_FIELDS } from '../../tools/emulator/seed-data.ts';
import { defaultIds } from '../../tools/slack-double/index.ts';
import { eventually } from '../support/eventually.ts';
import { modalOpenedBy, type Stack, startStack, ticketsOf } from '../support/stack.ts';

const { alice, bob, itHelp } = defaultIds;

type Block = { type: string; block_id?: string; element?: Record<string, unknown> };

describe('required desk fields on a filing without a form', () => {
  let stack: Stack;
  beforeAll(async () => {
    // #it-help files to the HR desk here, which requires a start date and a manager's email.
    stack = await startStack({ channelDesks: `${itHelp}=hr` });
  });
  afterAll(async () => {
    await stack.close();
  });

  const promptsFor = (userId: string) =>
    stack.double.workspace
      .ephemerals({ user: userId })
      .filter((e) => e.text.includes('needs a few more details'));
  const outboxSettled = () =>
    eventually(
      async () => (await stack.app.stores.outbox.stats()).depth === 0,
      5_000,
      'the outbox to empty',
    );

  /** Alice writes in #it-help and Bob reacts with 🎫: the ticket would be Alice's. */
  async function reactToNewMessage(text: string) {
    const posted = await stack.driver.userPosts({ userId: alice, channelId: itHelp, text });
    await stack.driver.userReacts({
      userId: bob,
      channelId: itHelp,
      ts: posted.ts,
      reaction: 'ticket',
    });
    const prompt = await eventually(
      () => promptsFor(bob).find((e) => e.text && JSON.stringify(e.blocks).includes(text)),
      5_000,
      'the private prompt',
    );
    return { ts: posted.ts, prompt };
  }

  async function openDetails(promptTs: string) {
    const before = stack.double.workspace.modalStack(bob).at(-1)?.id;
    await stack.driver.blockAction({
      userId: bob,
      channelId: itHelp,
      messageTs: promptTs,
      actionId: 'add_desk_details',
    });
    await eventually(
      () => {
        const top = stack.double.workspace.modalStack(bob).at(-1)?.id;
        return (top !== undefined && top !== before) || undefined;
      },
      5_000,
      'the details form',
    );
    const view = stack.double.workspace.modalStack(bob).at(-1);
    if (!view) throw new Error('no form open');
    // The fields come with the form, or by one update right after it.
    await eventually(
      () =>
        ((stack.double.workspace.view(view.id)?.blocks ?? []) as Block[]).some(
          (b) => b.block_id === 'cf_start_date',
        ) || undefined,
      5_000,
      'the desk fields in the form',
    );
    return view.id;
  }

  it('files nothing and asks the reactor privately for the desk’s required fields', async () => {
    const { prompt } = await reactToNewMessage('Onboarding laptop for Kim please');
    await outboxSettled();
    expect(ticketsOf(stack, 'alice@acme.example')).toHaveLength(0);
    expect(prompt.text).toContain('Start date');
    expect(prompt.text).toContain('Manager’s email');
    expect(JSON.stringify(prompt.blocks)).toContain('Add the details');
    expect(promptsFor(alice)).toHaveLength(0);
  });

  it('opens the form with the message’s words kept and the desk’s required fields', async () => {
    const { prompt } = await reactToNewMessage('New starter Dana needs accounts');
    const viewId = await openDetails(prompt.ts);
    const blocks = stack.double.workspace.view(viewId)?.blocks as Block[];
    const byId = new Map(blocks.map((b) => [b.block_id, b]));
    expect(byId.get('title')?.element?.initial_value).toBe('New starter Dana needs accounts');
    expect(String(byId.get('description')?.element?.initial_value)).toContain(
      'New starter Dana needs accounts',
    );
    expect(byId.get('cf_start_date')).toMatchObject({ optional: false });
    expect(byId.get('cf_manager_email')).toMatchObject({ optional: false });
    expect(byId.has('desk')).toBe(false);
  });

  it('files exactly one ticket with the fields, for the message’s author, in its thread', async () => {
    const text = 'Desk and badge for Robin starting Monday';
    const { ts, prompt } = await reactToNewMessage(text);
    const viewId = await openDetails(prompt.ts);
    const values = { cf_start_date: '2026-12-07', cf_manager_email: 'lena.fischer@acme.example' };
    const first = await stack.driver.viewSubmission({ viewId, userId: bob, values });
    expect(first.responseActionError).toBeUndefined();
    // The prompt's button again, and a second form: still one ticket.
    const again = await openDetails(prompt.ts);
    const second = await stack.driver.viewSubmission({ viewId: again, userId: bob, values });
    expect(JSON.stringify(second.body)).toContain('already filed');
    await outboxSettled();
    const filed = ticketsOf(stack, 'alice@acme.example').filter((t) => t.title === text);
    expect(filed).toHaveLength(1);
    const ticket = stack.emulator.model.getTicket('acme', filed[0]?.id ?? '');
    expect(ticket.desk_id).toBe('hr');
    expect(ticket.custom_fields).toMatchObject({
      start_date: '2026-12-07',
      manager_email: 'lena.fischer@acme.example',
    });
    const thread = stack.double.workspace.thread(itHelp, ts) ?? [];
    expect(thread.some((m) => m.text?.includes(ticket.id))).toBe(true);
  });

  it('does not file the message again when someone else reacts after the prompt', async () => {
    const text = 'Payroll access for the new analyst';
    const { ts } = await reactToNewMessage(text);
    await stack.driver.userReacts({ userId: alice, channelId: itHelp, ts, reaction: 'ticket' });
    await outboxSettled();
    expect(ticketsOf(stack, 'alice@acme.example').filter((t) => t.title === text)).toHaveLength(0);
    expect(promptsFor(bob).filter((e) => JSON.stringify(e.blocks).includes(text))).toHaveLength(1);
    await eventually(
      () =>
        stack.double.workspace
          .ephemerals({ user: alice })
          .some((e) =>
            e.text.includes(
              `waiting for details its desk needs before it is filed; <@${bob}> was asked`,
            ),
          ) || undefined,
      5_000,
      'the second reactor told who is asked',
    );
  });

  it('files a waiting message once when its desk’s fields come from the message shortcut’s form', async () => {
    const text = 'Laptop and phone for the new controller';
    const { ts, prompt } = await reactToNewMessage(text);
    const shortcut = await modalOpenedBy(stack, alice, () =>
      stack.driver.messageShortcut({
        callbackId: 'create_ticket_from_message',
        userId: alice,
        channelId: itHelp,
        messageTs: ts,
      }),
    );
    const values = { cf_start_date: '2027-02-01', cf_manager_email: 'lena.fischer@acme.example' };
    const filed = await stack.driver.viewSubmission({ viewId: shortcut.id, userId: alice, values });
    expect(filed.responseActionError).toBeUndefined();
    expect(JSON.stringify(filed.body ?? {})).not.toContain('already filed');
    const ticket = await eventually(
      () => ticketsOf(stack, 'alice@acme.example').find((t) => t.title === text),
      5_000,
      'the ticket',
    );
    expect(ticket.custom_fields).toMatchObject({ start_date: '2027-02-01' });
    // The prompt's form afterwards learns it is filed, and files nothing.
    const viewId = await openDetails(prompt.ts);
    const late = await stack.driver.viewSubmission({ viewId, userId: bob, values });
    expect(JSON.stringify(late.body)).toContain(`already filed as *${ticket.id}*`);
    await outboxSettled();
    expect(ticketsOf(stack, 'alice@acme.example').filter((t) => t.title === text)).toHaveLength(1);
  });

  it('refuses the button to anyone but the person who filed', async () => {
    const { prompt } = await reactToNewMessage('Contract for the new designer');
    const modals = stack.double.workspace.modalStack(alice).length;
    await stack.driver.blockAction({
      userId: alice,
      channelId: itHelp,
      messageTs: prompt.ts,
      actionId: 'add_desk_details',
    });
    await eventually(
      () =>
        stack.double.workspace
          .ephemerals({ user: alice })
          .some((e) => e.text.includes('Only the person who asked')) || undefined,
      5_000,
      'the refusal',
    );
    expect(stack.double.workspace.modalStack(alice)).toHaveLength(modals);
  });
});

describe('required desk fields when Slack fails the prompt’s form', { timeout: 30_000 }, () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ channelDesks: `${itHelp}=hr` });
  });
  afterAll(async () => {
    await stack.close();
  });

  const promptFor = (userId: string, text: string) =>
    stack.double.workspace
      .ephemerals({ user: userId })
      .find(
        (e) =>
          e.text.includes('needs a few more details') && JSON.stringify(e.blocks).includes(text),
      );
  const blocksOf = (viewId: string) =>
    (stack.double.workspace.view(viewId)?.blocks ?? []) as Block[];

  async function prompted(userId: string, text: string) {
    const posted = await stack.driver.userPosts({ userId, channelId: itHelp, text });
    await stack.driver.userReacts({ userId, channelId: itHelp, ts: posted.ts, reaction: 'ticket' });
    const prompt = await eventually(() => promptFor(userId, text), 5_000, 'the prompt');
    return { ts: posted.ts, prompt };
  }

  async function click(userId: string, promptTs: string) {
    const before = stack.double.workspace.modalStack(userId).at(-1)?.id;
    await stack.driver.blockAction({
      userId,
      channelId: itHelp,
      messageTs: promptTs,
      actionId: 'add_desk_details',
    });
    return before;
  }

  async function newModal(userId: string, before: string | undefined) {
    return eventually(
      () => {
        const top = stack.double.workspace.modalStack(userId).at(-1);
        return top && top.id !== before ? top : undefined;
      },
      5_000,
      'the details form',
    );
  }

  // First on this stack: the HR desk's fields are not kept yet, so the form is filled in after.
  it('leaves the form as it opened when Slack answers 500 to filling in the fields, and files nothing without them', async () => {
    const text = 'Onboarding kit for Sam';
    const { prompt } = await prompted(alice, text);
    const updates = stack.double.callsTo('views.update').length;
    stack.double.failNext('views.update', 'internal_error', { status: 500, times: 2 });
    const before = await click(alice, prompt.ts);
    const view = await newModal(alice, before);
    await eventually(
      () => stack.double.callsTo('views.update').length > updates || undefined,
      5_000,
      'the fill attempt',
    );
    expect(blocksOf(view.id).some((b) => b.block_id === 'cf_start_date')).toBe(false);
    expect(JSON.stringify(blocksOf(view.id))).toContain('Loading the desk');
    const refused = await stack.driver.viewSubmission({ viewId: view.id, userId: alice });
    expect(refused.responseAction).toBe('errors');
    expect(JSON.stringify(refused.body)).toContain('Start date');
    expect(ticketsOf(stack, 'alice@acme.example').filter((t) => t.title === text)).toHaveLength(0);
    // Pressed again, the form opens with the fields, now kept, and files.
    const again = await newModal(alice, await click(alice, prompt.ts));
    expect(blocksOf(again.id).some((b) => b.block_id === 'cf_start_date')).toBe(true);
    await stack.driver.viewSubmission({
      viewId: again.id,
      userId: alice,
      values: { cf_start_date: '2026-12-14', cf_manager_email: 'lena.fischer@acme.example' },
    });
    await eventually(
      () => ticketsOf(stack, 'alice@acme.example').find((t) => t.title === text),
      5_000,
      'the ticket',
    );
  });

  it('tells the person privately, with their words, when Slack rate-limits opening the form', async () => {
    const text = 'Parking permit for the new hire';
    const { prompt } = await prompted(bob, text);
    stack.double.failNext('views.open', 'ratelimited', { retryAfterSec: 1 });
    await click(bob, prompt.ts);
    const told = await eventually(
      () =>
        stack.double.workspace
          .ephemerals({ user: bob })
          .find((e) => e.text.includes('Slack is busy')),
      5_000,
      'the private notice',
    );
    expect(JSON.stringify(told.blocks)).toContain(text);
    expect(stack.double.workspace.modalStack(bob)).toHaveLength(0);
  });

  it('asks a request channel’s writer privately, and files the details in the message’s thread', async () => {
    await stack.app.stores.channelModes.set(itHelp, 'auto');
    try {
      const text = 'Locker for the new intern';
      const posted = await stack.driver.userPosts({ userId: bob, channelId: itHelp, text });
      const prompt = await eventually(() => promptFor(bob, text), 10_000, 'the prompt');
      expect(prompt.thread_ts).toBeUndefined();
      const view = await newModal(bob, await click(bob, prompt.ts));
      await stack.driver.viewSubmission({
        viewId: view.id,
        userId: bob,
        values: { cf_start_date: '2026-12-21', cf_manager_email: 'lena.fischer@acme.example' },
      });
      const ticket = await eventually(
        () => ticketsOf(stack, 'bob@acme.example').find((t) => t.title === text),
        5_000,
        'the ticket',
      );
      await eventually(
        () =>
          (stack.double.workspace.thread(itHelp, posted.ts) ?? []).some((m) =>
            m.text?.includes(ticket.id),
          ) || undefined,
        5_000,
        'the confirmation in the message’s thread',
      );
      // The thread is linked just after the card is posted.
      const linked = await eventually(
        () => stack.app.stores.links.ticketForThread(itHelp, posted.ts),
        5_000,
        'the thread linked',
      );
      expect(linked).toBe(ticket.id);
    } finally {
      await stack.app.stores.channelModes.set(itHelp, 'off');
    }
  });
});

describe('required desk fields on a platform that files without them', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      channelDesks: `${itHelp}=hr`,
      emulator: { capabilities: { requiredFieldsOnCreate: false } },
    });
  });
  afterAll(async () => {
    await stack.close();
  });

  const isFollowUp = (text: string | undefined, ticketId: string) =>
    !!text?.includes(`*${ticketId}* is filed`) && text.includes('also needs');
  const dmFollowUps = (userId: string, ticketId: string) =>
    stack.double.workspace
      .messages(stack.double.workspace.openIm(userId))
      .filter((m) => isFollowUp(m.text, ticketId))
      .map((m) => ({
        ts: m.ts,
        text: m.text ?? '',
        channel: stack.double.workspace.openIm(userId),
      }));
  const followUps = (userId: string, ticketId: string) => [
    ...stack.double.workspace
      .ephemerals({ user: userId })
      .filter((e) => isFollowUp(e.text, ticketId)),
    ...dmFollowUps(userId, ticketId),
  ];

  async function fileWithReaction(text: string) {
    const posted = await stack.driver.userPosts({ userId: alice, channelId: itHelp, text });
    await stack.driver.userReacts({
      userId: alice,
      channelId: itHelp,
      ts: posted.ts,
      reaction: 'ticket',
    });
    const ticket = await eventually(
      () => ticketsOf(stack, 'alice@acme.example').find((t) => t.title === text),
      5_000,
      'the ticket',
    );
    return { ts: posted.ts, ticket };
  }

  async function openForm(prompt: { ts: string; channel?: string }) {
    const before = stack.double.workspace.modalStack(alice).at(-1)?.id;
    await stack.driver.blockAction({
      userId: alice,
      channelId: prompt.channel ?? itHelp,
      messageTs: prompt.ts,
      actionId: 'add_desk_details',
    });
    const view = await eventually(
      () => {
        const top = stack.double.workspace.modalStack(alice).at(-1);
        return top && top.id !== before ? top : undefined;
      },
      5_000,
      'the details form',
    );
    await eventually(
      () =>
        ((stack.double.workspace.view(view.id)?.blocks ?? []) as Block[]).some(
          (b) => b.block_id === 'cf_start_date',
        ) || undefined,
      5_000,
      'the desk fields in the form',
    );
    return view.id;
  }

  it('files the ticket, then asks privately for the missing fields and adds them to it', async () => {
    const { ts, ticket } = await fileWithReaction('Welcome pack for Noor');
    expect(ticket.desk_id).toBe('hr');
    await eventually(
      () =>
        (stack.double.workspace.thread(itHelp, ts) ?? []).some((m) =>
          m.text?.includes(ticket.id),
        ) || undefined,
      5_000,
      'the confirmation in the thread',
    );
    const prompt = await eventually(() => followUps(alice, ticket.id)[0], 5_000, 'the prompt');
    expect(prompt.text).toContain('Start date');
    const viewId = await openForm(prompt);
    const ids = ((stack.double.workspace.view(viewId)?.blocks ?? []) as Block[]).map((b) =>
      b.type === 'input' ? b.block_id : b.type,
    );
    expect(ids).toEqual(['context', 'cf_start_date', 'cf_manager_email']);
    const values = { cf_start_date: '2027-01-04', cf_manager_email: 'lena.fischer@acme.example' };
    const added = await stack.driver.viewSubmission({ viewId, userId: alice, values });
    expect(added.responseAction).toBe('clear');
    expect(stack.emulator.model.getTicket('acme', ticket.id).custom_fields).toMatchObject({
      start_date: '2027-01-04',
      manager_email: 'lena.fischer@acme.example',
    });
    // The button again: the details are there already, and nothing is sent twice.
    const again = await openForm(prompt);
    const second = await stack.driver.viewSubmission({ viewId: again, userId: alice, values });
    expect(JSON.stringify(second.body)).toContain('already has these details');
    expect(
      ticketsOf(stack, 'alice@acme.example').filter((t) => t.title === ticket.title),
    ).toHaveLength(1);
  });

  it('asks in a direct message when Slack rate-limits the prompt’s ephemeral', async () => {
    stack.double.failNext('chat.postEphemeral', 'ratelimited', { retryAfterSec: 1 });
    const { ticket } = await fileWithReaction('Desk assignment for Ola');
    await eventually(() => dmFollowUps(alice, ticket.id)[0], 5_000, 'the DM');
    expect(followUps(alice, ticket.id)).toHaveLength(1);
  });

  it('shows the platform’s refusal of a value on its input', async () => {
    const { ticket } = await fileWithReaction('Access card for Lee');
    const prompt = await eventually(() => followUps(alice, ticket.id)[0], 5_000, 'the prompt');
    const viewId = await openForm(prompt);
    stack.emulator.model.setCustomFields('acme', 'hr', [
      {
        key: 'start_date',
        name: 'Start date',
        desk_id: 'hr',
        type: 'select',
        required: true,
        options: [{ value: 'monday', label: 'Monday' }],
        help: null,
      },
    ]);
    try {
      const refused = await stack.driver.viewSubmission({
        viewId,
        userId: alice,
        values: { cf_start_date: '2027-01-04', cf_manager_email: 'lena.fischer@acme.example' },
      });
      expect(refused.responseAction).toBe('errors');
      expect(refused.body).toMatchObject({ errors: { cf_start_date: expect.any(String) } });
    } finally {
      stack.emulator.model.setCustomFields(
        'acme',
        'hr',
        STANDARD_CUSTOM_FIELDS.filter((field) => field.desk_id === 'hr'),
      );
    }
  });
});
