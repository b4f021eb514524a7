import { describe, expect, it } from 'vitest';
import {
  escapeMrkdwn,
  LIMITS,
  link,
  quotedSections,
  safeMrkdwn,
  splitText,
  truncate,
} from '../../../src/slack/builders/mrkdwn.ts';

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

describe('splitting long text', () => {
  const long = Array.from({ length: 900 }, (_, i) => `word${i}`).join(' ');

  it('gives the text back whole when the pieces are joined', () => {
    const pieces = splitText(long, 1000);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join('')).toBe(long);
    for (const piece of pieces) expect(Array.from(piece).length).toBeLessThanOrEqual(1000);
  });

  it('ends a piece after a space rather than inside a word', () => {
    for (const piece of splitText(long, 1000).slice(0, -1)) expect(piece.endsWith(' ')).toBe(true);
  });

  it('prefers a line break to a space', () => {
    const text = `${'a '.repeat(400)}\n${'b '.repeat(100)}`;
    expect(splitText(text, 1000)[0]?.endsWith('\n')).toBe(true);
  });

  it('counts escaped characters at their escaped length', () => {
    const pieces = splitText('<&>'.repeat(1000), 3000, { escaped: true });
    expect(pieces.join('')).toBe('<&>'.repeat(1000));
    for (const piece of pieces) expect(escapeMrkdwn(piece).length).toBeLessThanOrEqual(3000);
  });

  it('quotes 10,000 characters over several sections without cutting any', () => {
    const text = 'x'.repeat(10_000);
    const sections = quotedSections(text, 48);
    expect(sections.length).toBe(4);
    for (const s of sections) expect(s.text.text.length).toBeLessThanOrEqual(LIMITS.sectionText);
    expect(sections.map((s) => s.text.text.replaceAll('```', '')).join('')).toBe(text);
  });
});
