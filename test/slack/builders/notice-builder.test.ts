import { describe, expect, it } from 'vitest';
import { blockTextLength, LIMITS } from '../../../src/slack/builders/mrkdwn.ts';
import {
  buildDelayedNotice,
  buildFailureNotice,
} from '../../../src/slack/builders/notice-builder.ts';

describe('delayed notice', () => {
  it('says the service desk is not answering when nobody knows how long it will be', () => {
    expect(buildDelayedNotice('ticket').text).toContain(
      'The service desk is not answering right now. Your ticket is saved',
    );
  });

  it('says the service desk is busy, not down, and that it will be within a minute', () => {
    const { text } = buildDelayedNotice('reply', 42_000);
    expect(text).toContain('Many requests are reaching the service desk right now.');
    expect(text).toContain('Your reply is saved and will be sent within a minute');
    expect(text).not.toContain('not answering');
  });

  it('gives a longer wait in whole minutes, rounded up', () => {
    expect(buildDelayedNotice('ticket', 121_000).text).toContain('will be sent in about 3 minutes');
  });
});

describe('failure notice', () => {
  it('gives back every word of a long message, across as many sections as it takes', () => {
    const words = Array.from({ length: 2_000 }, (_, i) => `w${i}`).join(' ');
    const notice = buildFailureNotice(':warning: failed', words);
    const quoted = (notice.blocks ?? [])
      .filter((b) => b.type === 'section')
      .slice(1)
      .map((b) => (b as { text: { text: string } }).text.text.replaceAll('```', ''))
      .join('');
    expect(quoted).toBe(words);
    expect(notice.blocks?.length).toBeLessThanOrEqual(50);
  });

  it('keeps a message of 40,000 characters within what one Slack message carries, saying how much is not shown', () => {
    const words = 'word '.repeat(8_000);
    const notice = buildFailureNotice(':warning: failed', words);
    expect(blockTextLength(notice.blocks)).toBeLessThanOrEqual(LIMITS.messageBlockText);
    expect(JSON.stringify(notice.blocks.at(-1))).toMatch(/more characters, not shown/);
  });
});
