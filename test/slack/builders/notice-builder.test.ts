import { describe, expect, it } from 'vitest';
import { buildDelayedNotice } from '../../../src/slack/builders/notice-builder.ts';

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
