import { describe, expect, it } from 'vitest';
import {
  blockTextLength,
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

  it('never splits an emoji, counting it as its two UTF-16 units', () => {
    expect(truncate('😀😀😀😀', 5)).toBe('😀😀…');
    expect(truncate('😀😀😀😀', 4)).toBe('😀…');
  });

  it('counts escaped text in UTF-16 units against its limit', () => {
    const cut = safeMrkdwn('🙂'.repeat(2000), 3000);
    expect(cut.length).toBeLessThanOrEqual(3000);
    expect(cut.endsWith('🙂…')).toBe(true);
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

  it('keeps pieces of emoji-rich text within the limit in UTF-16 units, never inside an emoji', () => {
    const line = `${'a'.repeat(2916)}${'🙂'.repeat(79)}\n`;
    const text = line.repeat(21);
    const pieces = splitText(text, 3000, { escaped: true });
    for (const piece of pieces) {
      expect(piece.length).toBeLessThanOrEqual(3000);
      expect(piece.isWellFormed()).toBe(true);
    }
    expect(pieces.join('')).toBe(text);
  });

  it('counts escaped characters at their escaped length', () => {
    const pieces = splitText('<&>'.repeat(1000), 3000, { escaped: true });
    expect(pieces.join('')).toBe('<&>'.repeat(1000));
    for (const piece of pieces) expect(escapeMrkdwn(piece).length).toBeLessThanOrEqual(3000);
  });

  it('says how many of a person’s words one message could not show instead of cutting them silently', () => {
    const text = 'y'.repeat(30_000);
    const sections = quotedSections(text, 48, 10_000);
    const shown = sections
      .slice(0, -1)
      .map((s) => s.text.text.replaceAll('```', ''))
      .join('');
    expect(blockTextLength(sections)).toBeLessThanOrEqual(10_000);
    expect(text.startsWith(shown)).toBe(true);
    expect(sections.at(-1)?.text.text).toContain(
      `${(text.length - shown.length).toLocaleString('en-US')} more characters, not shown`,
    );
  });

  it('quotes 10,000 characters over several sections without cutting any', () => {
    const text = 'x'.repeat(10_000);
    const sections = quotedSections(text, 48);
    expect(sections.length).toBe(4);
    for (const s of sections) expect(s.text.text.length).toBeLessThanOrEqual(LIMITS.sectionText);
    expect(sections.map((s) => s.text.text.replaceAll('```', '')).join('')).toBe(text);
  });
});
