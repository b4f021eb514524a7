/**
 * Bolt is extended through what it documents (the Receiver interface, its exported functions),
 * never patched: a minor release may change anything private, and a patch would break silently.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../../../', import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

// Bolt's receivers' private fields, a method replaced, the App wrapped.
const PATCHES = /requestListener|httpServer|\.init\s*=|new Proxy\(/;
// Where the App and its receivers are built, a cast past Bolt's types is a patch in waiting.
const CAST = /as unknown as/;
const BUILDERS = /^src\/(slack\/app\/|slack\/create-slack-app\.ts|runtime\.ts|main\.ts|ops\/)/;

describe('Bolt in src/', () => {
  const boltUsers = sources('src').filter((path) =>
    /from '@slack\/(bolt|socket-mode)'/.test(readFileSync(join(root, path), 'utf8')),
  );

  it('is used by the receivers of ours', () => {
    expect(boltUsers).toEqual(
      expect.arrayContaining([
        'src/slack/app/slack-http-receiver.ts',
        'src/slack/app/slack-socket-receiver.ts',
      ]),
    );
  });

  it('is patched nowhere: no private field read, no method replaced, no App wrapped', () => {
    const patched = boltUsers.flatMap((path) =>
      readFileSync(join(root, path), 'utf8')
        .split('\n')
        .map((line, index) => ({ at: `${relative(root, join(root, path))}:${index + 1}`, line }))
        .filter(({ line }) => PATCHES.test(line) || (BUILDERS.test(path) && CAST.test(line)))
        .filter(({ line }) => !line.trimStart().startsWith('//')),
    );
    expect(patched).toEqual([]);
  });

  it('builds none of Bolt’s own receivers, whose private parts the app once patched', () => {
    const used = boltUsers.filter((path) =>
      /new (HTTPReceiver|SocketModeReceiver|ExpressReceiver)\(/.test(
        readFileSync(join(root, path), 'utf8'),
      ),
    );
    expect(used).toEqual([]);
  });
});
