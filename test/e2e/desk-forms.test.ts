/**
 * Desk forms: the create form shows the chosen desk's custom fields, swaps them when the desk
 * changes (keeping what was typed), shows a custom field's 422 on its input, and files them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomField } from '../../src/contract/schemas.ts';
import { STANDARD_CUSTOM_FIELDS } from '../../tools/emulator/seed-data.ts';
import { defaultIds } from '../../tools/slack-double/index.ts';
import { eventually } from '../support/eventually.ts';
import { modalOpenedBy, type Stack, startStack, ticketsOf } from '../support/stack.ts';

const { alice, bob, itHelp, general } = defaultIds;

type Block = { type: string; block_id?: string; element?: Record<string, unknown> };

describe('desk forms', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack.close();
  });

  const blocksOf = (viewId: string) =>
    (stack.double.workspace.view(viewId)?.blocks ?? []) as Block[];
  const blockIds = (viewId: string) => blocksOf(viewId).map((b) => b.block_id ?? b.type);
  const fieldIds = (viewId: string) => blockIds(viewId).filter((id) => id.startsWith('cf_'));

  async function openForm(userId: string, channelId: string, text = '') {
    return modalOpenedBy(stack, userId, () =>
      stack.driver.slashCommand({ userId, channelId, text }),
    );
  }

  /** The person types into inputs (Slack's client keeps it in the view's state). */
  function type(viewId: string, entered: Record<string, Record<string, unknown>>) {
    const view = stack.double.workspace.view(viewId);
    if (!view) throw new Error(`no view ${viewId}`);
    stack.double.workspace.setViewState(viewId, {
      ...view.state.values,
      ...(entered as typeof view.state.values),
    });
  }

  /** The person chooses a desk; resolves once the form was swapped (or Slack refused it). */
  async function chooseDesk(viewId: string, userId: string, desk: string) {
    const before = stack.double.callsTo('views.update').length;
    await stack.driver.blockAction({ userId, viewId, actionId: 'desk_select', value: desk });
    await eventually(
      () => stack.double.callsTo('views.update').length > before || undefined,
      5_000,
      'the desk swap',
    );
  }

  it('opens the routed desk’s fields after the common inputs', async () => {
    const view = await openForm(alice, itHelp);
    expect(blockIds(view.id).slice(0, 6)).toEqual([
      'title',
      'description',
      'desk',
      'priority',
      'cf_device_type',
      'cf_office',
    ]);
  });

  it('asks the platform for a desk’s fields once, not once per form', async () => {
    await openForm(alice, itHelp);
    await openForm(bob, itHelp);
    // Three forms on the IT desk so far (this file's first too): one request for its fields.
    expect(stack.platformRequests.filter((op) => op === 'listCustomFields')).toHaveLength(1);
  });

  it('swaps the fields in place when the desk changes, keeping everything typed', async () => {
    const view = await openForm(bob, general);
    expect(fieldIds(view.id)).toEqual([]);
    type(view.id, {
      title: { title_input: { type: 'plain_text_input', value: 'New colleague on Monday' } },
      description: {
        description_input: { type: 'plain_text_input', value: 'Joins the sales team' },
      },
      priority: {
        priority_select: {
          type: 'static_select',
          selected_option: { text: { type: 'plain_text', text: 'High' }, value: 'high' },
        },
      },
    });
    await chooseDesk(view.id, bob, 'hr');
    await eventually(() => fieldIds(view.id).length > 0 || undefined, 5_000, 'HR fields');
    expect(fieldIds(view.id)).toEqual(['cf_start_date', 'cf_manager_email']);
    const byId = new Map(blocksOf(view.id).map((b) => [b.block_id, b]));
    expect(byId.get('title')?.element?.initial_value).toBe('New colleague on Monday');
    expect(byId.get('description')?.element?.initial_value).toBe('Joins the sales team');
    expect(byId.get('priority')?.element?.initial_option).toMatchObject({ value: 'high' });
    expect(byId.get('desk')?.element?.initial_option).toMatchObject({ value: 'hr' });
    expect(byId.get('cf_start_date')).toMatchObject({ optional: false });
    expect(byId.get('cf_start_date')?.element?.type).toBe('datepicker');
    expect(byId.get('cf_manager_email')?.element?.type).toBe('email_text_input');
  });

  it('keeps a value typed into a field both desks define when switching between them', async () => {
    const view = await openForm(alice, itHelp);
    type(view.id, {
      cf_device_type: {
        'custom_field_select.device_type': {
          type: 'static_select',
          selected_option: { text: { type: 'plain_text', text: 'Phone' }, value: 'phone' },
        },
      },
    });
    await chooseDesk(view.id, alice, 'it-hardware');
    await eventually(
      () => fieldIds(view.id).includes('cf_serial_number') || undefined,
      5_000,
      'Hardware fields',
    );
    const device = blocksOf(view.id).find((b) => b.block_id === 'cf_device_type');
    expect(device?.element?.initial_option).toMatchObject({ value: 'phone' });
  });

  it('files the desk’s fields with the ticket', async () => {
    const view = await openForm(bob, general);
    await chooseDesk(view.id, bob, 'hr');
    await eventually(() => fieldIds(view.id).length > 0 || undefined, 5_000, 'HR fields');
    const result = await stack.driver.viewSubmission({
      viewId: view.id,
      userId: bob,
      values: {
        title_input: 'Onboarding for Kim',
        cf_start_date: '2026-12-01',
        cf_manager_email: 'lena.fischer@acme.example',
      },
    });
    expect(result.status).toBe(200);
    const ticket = await eventually(
      () => ticketsOf(stack, 'bob@acme.example').find((t) => t.title === 'Onboarding for Kim'),
      5_000,
      'the HR ticket',
    );
    expect(ticket).toMatchObject({
      desk_id: 'hr',
      custom_fields: { start_date: '2026-12-01', manager_email: 'lena.fischer@acme.example' },
    });
  });

  it('shows a ticket’s custom field values by their names on its /ticket card', async () => {
    const ticket = stack.emulator.model.createTicket('acme', {
      title: 'Onboarding for Ravi',
      requester_email: 'bob@acme.example',
      desk_id: 'hr',
      custom_fields: { start_date: '2027-01-04', manager_email: 'lena.fischer@acme.example' },
    });
    const command = await stack.driver.slashCommand({
      userId: bob,
      channelId: general,
      text: ticket.id,
    });
    const post = await stack.double.waitForResponseUrlPost(
      (p) => p.url === command.responseUrl,
      5_000,
    );
    const names = Object.fromEntries(
      STANDARD_CUSTOM_FIELDS.filter((f) => f.desk_id === 'hr').map((f) => [f.key, f.name]),
    );
    const shown = JSON.stringify(post.body);
    expect(shown).toContain(names.start_date);
    expect(shown).toContain('2027-01-04');
    expect(shown).toContain(names.manager_email);
  });

  it('shows the platform’s 422 on a custom field on that field’s input, losing nothing', async () => {
    const view = await openForm(alice, itHelp);
    // An admin withdraws "Laptop" from the desk's device types after the form listed it.
    const it = STANDARD_CUSTOM_FIELDS.filter((f) => f.desk_id === 'it');
    const withoutLaptop = it.map(
      (f): CustomField =>
        f.key === 'device_type'
          ? { ...f, options: (f.options ?? []).filter((o) => o.value !== 'laptop') }
          : f,
    );
    stack.emulator.model.setCustomFields('acme', 'it', withoutLaptop);
    try {
      const result = await stack.driver.viewSubmission({
        viewId: view.id,
        userId: alice,
        values: { title_input: 'Laptop fan is loud', cf_device_type: 'laptop' },
      });
      expect(result.responseAction).toBe('errors');
      expect(result.responseActionError).toBeUndefined();
      expect(result.body).toMatchObject({
        errors: { cf_device_type: expect.stringContaining('Input should be') },
      });
      expect(stack.double.workspace.modalStack(alice).at(-1)?.id).toBe(view.id);
    } finally {
      stack.emulator.model.setCustomFields('acme', 'it', it);
    }
  });

  it('waits out a short Retry-After once and swaps the fields in', async () => {
    const view = await openForm(bob, general);
    stack.double.failNext('views.update', 'ratelimited', { retryAfterSec: 1 });
    await chooseDesk(view.id, bob, 'facilities');
    await eventually(
      () => fieldIds(view.id).includes('cf_floor') || undefined,
      5_000,
      'the fields after the retry',
    );
    expect(fieldIds(view.id)).toEqual(['cf_floor', 'cf_location_details']);
  });

  it('keeps the form when Slack fails the swap with a 500, and names a missing field on the desk input', async () => {
    const view = await openForm(bob, general);
    const before = blocksOf(view.id);
    // The client tries a 5xx once more: both fail.
    stack.double.failNext('views.update', 'internal_error', { status: 500, times: 2 });
    const notSwapped = () =>
      stack.logs.filter((line) => line.includes('desk fields not swapped')).length;
    const loggedBefore = notSwapped();
    await chooseDesk(view.id, bob, 'hr');
    await eventually(
      () => stack.double.callsTo('views.update').filter((c) => c.injected).length >= 2 || undefined,
      5_000,
      'both tries refused',
    );
    await eventually(() => notSwapped() > loggedBefore || undefined, 5_000, 'the refusal logged');
    expect(blocksOf(view.id)).toEqual(before);
    const refused = await stack.driver.viewSubmission({
      viewId: view.id,
      userId: bob,
      values: { title_input: 'Laptop for Kim', desk_select: 'hr' },
    });
    expect(refused.responseAction).toBe('errors');
    expect(refused.body).toMatchObject({
      errors: { desk: expect.stringContaining('Start date') },
    });
    // Choosing the desk again swaps the fields in, and the form files.
    await chooseDesk(view.id, bob, 'hr');
    await eventually(() => fieldIds(view.id).length > 0 || undefined, 5_000, 'HR fields');
    const filed = await stack.driver.viewSubmission({
      viewId: view.id,
      userId: bob,
      values: {
        title_input: 'Laptop for Kim',
        cf_start_date: '2026-12-07',
        cf_manager_email: 'lena.fischer@acme.example',
      },
    });
    expect(filed.status).toBe(200);
    await eventually(
      () => ticketsOf(stack, 'bob@acme.example').find((t) => t.title === 'Laptop for Kim'),
      5_000,
      'the ticket',
    );
  });

  // Last of this stack's tests: the app keeps the 30-second Retry-After, so no views.update
  // leaves it for 30 s after.
  it('keeps the form as it was when Slack refuses the swap, and it can still be filed', async () => {
    const view = await openForm(bob, general);
    const before = blocksOf(view.id);
    type(view.id, {
      title: { title_input: { type: 'plain_text_input', value: 'Desk chair for Kim' } },
    });
    stack.double.failNext('views.update', 'ratelimited', { retryAfterSec: 30 });
    await chooseDesk(view.id, bob, 'facilities');
    await eventually(
      () => stack.logs.some((line) => line.includes('desk fields not swapped')) || undefined,
      5_000,
      'the refusal logged',
    );
    expect(blocksOf(view.id)).toEqual(before);
    expect(stack.double.workspace.view(view.id)?.state.values.title?.title_input).toMatchObject({
      value: 'Desk chair for Kim',
    });
    const result = await stack.driver.viewSubmission({
      viewId: view.id,
      userId: bob,
      values: { title_input: 'Desk chair for Kim', desk_select: 'facilities' },
    });
    expect(result.status).toBe(200);
    await eventually(
      () => ticketsOf(stack, 'bob@acme.example').find((t) => t.title === 'Desk chair for Kim'),
      5_000,
      'the ticket filed from the unswapped form',
    );
  });
});

describe('desk forms on a platform without custom fields', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ emulator: { capabilities: { customFields: false } } });
  });
  afterAll(async () => {
    await stack.close();
  });

  it('opens, swaps and files the form without desk fields', async () => {
    const view = await modalOpenedBy(stack, alice, () =>
      stack.driver.slashCommand({ userId: alice, channelId: itHelp, text: '' }),
    );
    const ids = () =>
      ((stack.double.workspace.view(view.id)?.blocks ?? []) as Block[]).map(
        (b) => b.block_id ?? b.type,
      );
    expect(ids()).toEqual(['title', 'description', 'desk', 'priority']);
    const before = stack.double.callsTo('views.update').length;
    await stack.driver.blockAction({
      userId: alice,
      viewId: view.id,
      actionId: 'desk_select',
      value: 'hr',
    });
    await eventually(
      () => stack.double.callsTo('views.update').length > before || undefined,
      5_000,
      'the swap',
    );
    expect(ids().filter((id) => id.startsWith('cf_'))).toEqual([]);
    await stack.driver.viewSubmission({
      viewId: view.id,
      userId: alice,
      values: { title_input: 'Onboarding without fields', desk_select: 'hr' },
    });
    await eventually(
      () =>
        ticketsOf(stack, 'alice@acme.example').find((t) => t.title === 'Onboarding without fields'),
      5_000,
      'the ticket',
    );
    expect(stack.logs.some((line) => line.includes('desk fields could not be loaded'))).toBe(false);
  });
});
