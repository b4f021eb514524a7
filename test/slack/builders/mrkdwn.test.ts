import { describe, expect, it } from 'vitest';
import { escapeMrkdwn, link, safeMrkdwn, truncate } from '../../../src/slack/builders/mrkdwn.ts';

describe('mrkdwn safety', () => {
  it('escapes the characters that make mentions and links', () => {
    expect(escapeMrkdwn('<!channel> & <@U123> <https://x|y>')).toBe(
      '&lt;!channel&gt; &amp; &lt;@U123&gt; &lt;https://x|y&gt;',
    );
  });

  it('leaves short text whole', () => {
    expect(truncate('hello', 5)).toBe('hello');
  });

  it('ends cut text with an ellipsis within the limit', () => {
    const cut = truncate('a'.repeat(200), 150);
    expect(Array.from(cut)).toHaveLength(150);
    expect(cut.endsWith('…')).toBe(true);
  });

  it('never splits an emoji', () => {
    expect(truncate('😀😀😀😀', 3)).toBe('😀😀…');
  });

  it('never cuts through an escaped entity', () => {
    const cut = safeMrkdwn(`${'a'.repeat(8)}<b`, 11);
    expect(cut).toBe('aaaaaaaa…');
  });

  it('escapes the label of a link and keeps the URL from closing it early', () => {
    expect(link('https://x.example/a b|c', '<!here>')).toBe(
      '<https://x.example/a%20b%7Cc|&lt;!here&gt;>',
    );
  });
});
