/**
 * The sandbox's emoji table against the app: every `:name:` the app can post must show as its
 * character on the simulator page, not as the code. The app's sources are read, so a new
 * shortcode in any builder or notice fails here until the table knows it.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SANDBOX_TICKET_EMOJI } from '../../tools/sandbox/sandbox.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

interface EmojiModule {
  emojiChar(name: string): string | undefined;
  withEmoji(text: string): string;
  REACTION_CHOICES: readonly string[];
}

// A browser module: imported by URL, so the type checker does not look for its declarations.
const emoji = (await import(
  pathToFileURL(join(root, 'tools/sandbox/public/emoji.js')).href
)) as EmojiModule;

async function sourceFiles(directory: string): Promise<string[]> {
  const entries = await readdir(join(root, directory), { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Every `:name:` in the app's Slack code (a name has a letter: `09:30:00` is a time). */
async function shortcodesTheAppPosts(): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const file of await sourceFiles('src/slack')) {
    const text = await readFile(file, 'utf8');
    for (const [, name] of text.matchAll(/:([a-z0-9_+-]*[a-z][a-z0-9_+-]*):/g)) {
      if (name && !found.has(name)) found.set(name, file.slice(root.length));
    }
  }
  return found;
}

describe('the sandbox’s emoji', () => {
  it('renders every shortcode the app’s Slack code contains', async () => {
    const codes = await shortcodesTheAppPosts();
    // Guards the scan itself: with no codes found the check below would pass on nothing.
    expect(codes.get('ticket')).toBeDefined();
    const unknown = [...codes].filter(([name]) => emoji.emojiChar(name) === undefined);
    expect(unknown.map(([name, file]) => `:${name}: (${file})`)).toEqual([]);
  });

  it('renders the ticket emoji the sandbox’s app reacts to, and every reaction it offers', () => {
    const names = [SANDBOX_TICKET_EMOJI, ...emoji.REACTION_CHOICES];
    expect(names.filter((name) => emoji.emojiChar(name) === undefined)).toEqual([]);
  });

  it('shows the agent’s emoji as the technologist, not as its code', () => {
    expect(emoji.withEmoji(':technologist: *Sam Rivera*')).toBe('🧑‍💻 *Sam Rivera*');
  });

  it('leaves a code it does not know as written', () => {
    expect(emoji.withEmoji('at 09:30:00 :no_such_emoji:')).toBe('at 09:30:00 :no_such_emoji:');
  });
});
