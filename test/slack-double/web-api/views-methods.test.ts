import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  defaultIds,
  type SlackDouble,
  startSlackDouble,
} from '../../../tools/slack-double/index.ts';
import { callApi } from '../call-api.ts';

const ids = defaultIds;

function modal(title = 'New ticket', extra: Record<string, unknown> = {}) {
  return {
    type: 'modal',
    callback_id: 'ticket_create',
    private_metadata: '{"channel":"C0ITHELP"}',
    title: { type: 'plain_text', text: title },
    submit: { type: 'plain_text', text: 'Create' },
    blocks: [
      {
        type: 'input',
        block_id: 'title',
        label: { type: 'plain_text', text: 'Title' },
        element: { type: 'plain_text_input', action_id: 'title_input' },
      },
    ],
    ...extra,
  };
}

describe('views.* in the Slack double', () => {
  let double: SlackDouble;
  let clock: number;

  beforeEach(async () => {
    clock = 1_700_000_000_000;
    double = await startSlackDouble({ now: () => clock });
  });

  afterEach(async () => {
    await double.close();
  });

  it('opens a modal with an issued trigger id and answers the stored view', async () => {
    const trigger = double.issueTrigger(ids.alice);
    const answer = await callApi(double, 'views.open', { trigger_id: trigger, view: modal() });
    expect(answer.ok).toBe(true);
    const view = answer.view as Record<string, unknown>;
    expect(view).toMatchObject({
      id: expect.stringMatching(/^V[A-Z0-9]+$/),
      hash: expect.any(String),
      callback_id: 'ticket_create',
      private_metadata: '{"channel":"C0ITHELP"}',
      state: { values: {} },
    });
    expect(double.workspace.modalStack(ids.alice).map((v) => v.id)).toEqual([view.id]);
  });

  it('refuses a trigger id it never issued with invalid_trigger_id', async () => {
    const answer = await callApi(double, 'views.open', {
      trigger_id: '123.456.abc',
      view: modal(),
    });
    expect(answer).toEqual({ ok: false, error: 'invalid_trigger_id' });
  });

  it('refuses a trigger id used once already with exchanged_trigger_id', async () => {
    const trigger = double.issueTrigger(ids.alice);
    await callApi(double, 'views.open', { trigger_id: trigger, view: modal() });
    const again = await callApi(double, 'views.open', { trigger_id: trigger, view: modal() });
    expect(again).toEqual({ ok: false, error: 'exchanged_trigger_id' });
  });

  it('refuses a trigger id older than 3 seconds with expired_trigger_id', async () => {
    const trigger = double.issueTrigger(ids.alice);
    clock += 3001;
    const answer = await callApi(double, 'views.open', { trigger_id: trigger, view: modal() });
    expect(answer).toEqual({ ok: false, error: 'expired_trigger_id' });
  });

  it('refuses a modal title over 24 characters without spending the trigger', async () => {
    const trigger = double.issueTrigger(ids.alice);
    const tooLong = await callApi(double, 'views.open', {
      trigger_id: trigger,
      view: modal('A title that is far too long'),
    });
    const fixed = await callApi(double, 'views.open', { trigger_id: trigger, view: modal() });
    expect(tooLong.error).toBe('invalid_arguments');
    expect(tooLong.response_metadata).toEqual({
      messages: ['[ERROR] must be less than 25 characters [json-pointer:/view/title/text]'],
    });
    expect(fixed.ok).toBe(true);
  });

  it('refuses a modal with inputs but no submit button', async () => {
    const trigger = double.issueTrigger(ids.alice);
    const { submit: _submit, ...withoutSubmit } = modal();
    const answer = await callApi(double, 'views.open', {
      trigger_id: trigger,
      view: withoutSubmit,
    });
    expect(answer.error).toBe('invalid_arguments');
  });

  it('updates a view by id and changes its hash', async () => {
    const opened = await callApi(double, 'views.open', {
      trigger_id: double.issueTrigger(ids.alice),
      view: modal(),
    });
    const view = opened.view as { id: string; hash: string };
    const updated = await callApi(double, 'views.update', {
      view_id: view.id,
      hash: view.hash,
      view: modal('Ticket IT-9 created'),
    });
    expect(updated.view).toMatchObject({ id: view.id, title: { text: 'Ticket IT-9 created' } });
    expect((updated.view as { hash: string }).hash).not.toBe(view.hash);
  });

  it('updates a view by external_id', async () => {
    await callApi(double, 'views.open', {
      trigger_id: double.issueTrigger(ids.alice),
      view: modal('New ticket', { external_id: 'draft-1' }),
    });
    const updated = await callApi(double, 'views.update', {
      external_id: 'draft-1',
      view: modal('Saved'),
    });
    expect(updated.view).toMatchObject({ external_id: 'draft-1', title: { text: 'Saved' } });
  });

  it('answers hash_conflict when the hash is stale', async () => {
    const opened = await callApi(double, 'views.open', {
      trigger_id: double.issueTrigger(ids.alice),
      view: modal(),
    });
    const view = opened.view as { id: string; hash: string };
    await callApi(double, 'views.update', { view_id: view.id, view: modal('Second') });
    const stale = await callApi(double, 'views.update', {
      view_id: view.id,
      hash: view.hash,
      view: modal('Third'),
    });
    expect(stale).toEqual({ ok: false, error: 'hash_conflict' });
  });

  it('answers not_found when updating a view that does not exist', async () => {
    const answer = await callApi(double, 'views.update', { view_id: 'V0NOPE', view: modal() });
    expect(answer.error).toBe('not_found');
  });

  it('pushes onto the stack up to three views, then answers push_limit_reached', async () => {
    await callApi(double, 'views.open', {
      trigger_id: double.issueTrigger(ids.alice),
      view: modal(),
    });
    const errors = [];
    for (let i = 0; i < 3; i += 1) {
      const answer = await callApi(double, 'views.push', {
        trigger_id: double.issueTrigger(ids.alice),
        view: modal(`Step ${i}`),
      });
      errors.push(answer.error ?? 'ok');
    }
    expect(errors).toEqual(['ok', 'ok', 'push_limit_reached']);
    const stack = double.workspace.modalStack(ids.alice);
    expect(stack[1]?.previous_view_id).toBe(stack[0]?.id);
    expect(stack[1]?.root_view_id).toBe(stack[0]?.id);
  });

  it('publishes an App Home per user, keeping its id', async () => {
    const home = {
      type: 'home',
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'Hi' } }],
    };
    const first = await callApi(double, 'views.publish', { user_id: ids.alice, view: home });
    const second = await callApi(double, 'views.publish', { user_id: ids.alice, view: home });
    expect((second.view as { id: string }).id).toBe((first.view as { id: string }).id);
    expect(double.workspace.homeView(ids.alice)?.type).toBe('home');
    expect(double.workspace.homeView(ids.bob)).toBeUndefined();
  });

  it('refuses to publish a modal as an App Home', async () => {
    const answer = await callApi(double, 'views.publish', { user_id: ids.alice, view: modal() });
    expect(answer.error).toBe('invalid_arguments');
  });
});
