/** The Reply to requester modal's answer to Slack, for each way its reply can end. */
import { describe, expect, it } from 'vitest';
import { TimeoutError } from '../../../../src/servicedesk/index.ts';
import type { Settlement } from '../../../../src/slack/deps.ts';
import { ClosedTicketError } from '../../../../src/slack/errors.ts';
import { REPLY_FIELDS } from '../../../../src/slack/ids.ts';
import {
  replyError,
  replyToRequesterSubmission,
} from '../../../../src/slack/listeners/views/reply-to-requester-submission.ts';
import type { EnqueueOutcome } from '../../../../src/store/types.ts';
import { fakeDeps } from '../../support/fake-deps.ts';

const metadata = JSON.stringify({ ticketId: 'IT-7', channel: 'G0AGENTS', threadTs: '100.1' });

function submit(options: {
  agent?: boolean;
  text?: string;
  settled?: Settlement;
  outcome?: EnqueueOutcome;
}) {
  const submitted: { key: string; payload: unknown }[] = [];
  const acks: unknown[] = [];
  const deps = fakeDeps({
    people: { isAgent: async () => options.agent ?? true },
    settings: { submitWaitMs: 10 },
    worker: {
      async submit(key, _kind, payload) {
        submitted.push({ key, payload });
        return {
          outcome: options.outcome ?? { enqueued: true, id: 'e1' },
          ...(options.settled ? { settled: options.settled } : {}),
        };
      },
    },
  });
  const text = options.text ?? 'Please restart it';
  const args = {
    ack: async (answer?: unknown) => {
      acks.push(answer);
    },
    body: { user: { id: 'U0AGENT' } },
    view: {
      id: 'V1',
      private_metadata: metadata,
      state: {
        values: {
          [REPLY_FIELDS.text.block]: {
            [REPLY_FIELDS.text.action]: { type: 'plain_text_input', value: text },
          },
        },
      },
    },
  };
  return replyToRequesterSubmission(deps)(args as never).then(() => ({ acks, submitted }));
}

describe('the Reply to requester submission', () => {
  it('closes the modal once the reply is added', async () => {
    const { acks, submitted } = await submit({ settled: { state: 'done', result: {} } });
    expect(acks).toEqual([undefined]);
    expect(submitted[0]).toMatchObject({
      key: 'view:V1',
      payload: {
        ticketId: 'IT-7',
        userId: 'U0AGENT',
        body: 'Please restart it',
        channel: 'G0AGENTS',
        threadTs: '100.1',
        viewId: 'V1',
      },
    });
  });

  it('shows a platform failure on the text, which stays in the modal', async () => {
    const { acks } = await submit({
      settled: { state: 'failed', error: new ClosedTicketError('IT-7') },
    });
    expect(acks[0]).toMatchObject({
      response_action: 'errors',
      errors: { [REPLY_FIELDS.text.block]: expect.stringContaining('IT-7 is closed') },
    });
  });

  it('says the reply is saved when the platform is slow, rather than losing it', async () => {
    const { acks } = await submit({
      settled: {
        state: 'retrying',
        error: new TimeoutError({ operation: 'addMessage', method: 'POST', path: '/x' }),
        nextAttemptAt: 0,
      },
    });
    expect(acks[0]).toMatchObject({ response_action: 'update' });
    expect(JSON.stringify(acks[0])).toContain('is saved and will be sent');
  });

  it('asks for words when the text is blank, and sends nothing', async () => {
    const { acks, submitted } = await submit({ text: '   ' });
    expect(acks[0]).toMatchObject({ response_action: 'errors' });
    expect(submitted).toEqual([]);
  });

  it('refuses someone who is not an agent, and sends nothing', async () => {
    const { acks, submitted } = await submit({ agent: false });
    expect(JSON.stringify(acks[0])).toContain('Only service-desk agents');
    expect(submitted).toEqual([]);
  });

  it('closes the modal of a reply already sent', async () => {
    const { acks } = await submit({ outcome: { enqueued: false, id: 'e1', state: 'done' } });
    expect(acks).toEqual([undefined]);
  });
});

describe('a failure shown on the reply', () => {
  it('is plain text, without emoji codes or bold, and says the text is kept', () => {
    expect(replyError(':warning: Your *reply* could not be sent.')).toBe(
      'Your reply could not be sent. Your text is still here: try Send again.',
    );
  });

  it('is kept short', () => {
    expect(replyError('x'.repeat(1_000)).length).toBeLessThanOrEqual(300);
  });
});
