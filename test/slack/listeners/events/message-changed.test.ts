import { describe, expect, it } from 'vitest';
import type { QueuedReply } from '../../../../src/slack/intents/add-message.ts';
import {
  editedBody,
  messageChanged,
} from '../../../../src/slack/listeners/events/message-changed.ts';
import { createMemoryStores } from '../../../../src/store/index.ts';

const edit = (text: string, before = 'old words', extra: Record<string, unknown> = {}) => ({
  channel: 'C1',
  message: { user: 'U1', ts: '2.2', thread_ts: '1.1', text, ...extra },
  previous_message: { user: 'U1', ts: '2.2', text: before },
});

describe('message edits', () => {
  it('becomes an "edited:" message with the new words', () => {
    expect(editedBody(edit('new words'))).toBe('edited: new words');
  });

  it('ignores a change that leaves the words as they were (an unfurl, a reply count)', () => {
    expect(editedBody(edit('old words'))).toBeUndefined();
  });

  it('ignores the app’s own and other bots’ messages', () => {
    expect(editedBody(edit('card', 'x', { bot_id: 'B1' }))).toBeUndefined();
  });

  it('lists files in the edited message by permalink', () => {
    const body = editedBody(
      edit('see the log', 'x', {
        files: [{ name: 'log.txt', permalink: 'https://acme.slack.com/files/U1/F1/log.txt' }],
      }),
    );
    expect(body).toBe(
      'edited: see the log\n\nFiles:\n- log.txt: https://acme.slack.com/files/U1/F1/log.txt',
    );
  });

  it('in a thread the links do not know, under the app’s post, is queued for its thread to be looked up', async () => {
    const queued: QueuedReply[] = [];
    const enqueue = async (_key: string, payload: QueuedReply) => {
      queued.push(payload);
    };
    await messageChanged({ stores: createMemoryStores() }, edit('new words'), 'e1', enqueue, {
      appUserId: 'U0BOT',
    });
    expect(queued).toEqual([
      {
        appUserId: 'U0BOT',
        userId: 'U1',
        body: 'edited: new words',
        channel: 'C1',
        threadTs: '1.1',
        ts: '2.2',
      },
    ]);
  });

  it('in a thread the links do not know and that is no app’s, is left alone', async () => {
    const queued: QueuedReply[] = [];
    const enqueue = async (_key: string, payload: QueuedReply) => {
      queued.push(payload);
    };
    await messageChanged({ stores: createMemoryStores() }, edit('new words'), 'e1', enqueue);
    expect(queued).toEqual([]);
  });
});
