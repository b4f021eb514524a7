import { describe, expect, it } from 'vitest';
import { messageBody } from '../../../src/slack/tickets/message-text.ts';

describe('a thread reply as ticket text', () => {
  it('lists the files of a reply with their permalinks', () => {
    expect(
      messageBody({
        user: 'U1',
        ts: '2.2',
        channel: 'C1',
        text: 'Screenshot attached',
        files: [
          { title: 'error.png', permalink: 'https://acme.slack.com/files/U1/F1/error.png' },
          { name: 'no-link.txt' },
        ],
      }),
    ).toBe(
      'Screenshot attached\n\nFiles:\n- error.png: https://acme.slack.com/files/U1/F1/error.png',
    );
  });

  it('turns Slack markup into plain words', () => {
    expect(
      messageBody({ user: 'U1', ts: '1', channel: 'C1', text: 'ask <@U2|Sam> &amp; co' }),
    ).toBe('ask @Sam & co');
  });
});
