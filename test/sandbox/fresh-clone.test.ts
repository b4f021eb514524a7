/**
 * A fresh clone just works: `npm run sandbox` in a clone of this repository with nothing beside
 * it files a ticket from `/ticket My laptop will not start`, and a clone missing what the Slack
 * double needs stops at start saying what and how to restore it. The clone is of the committed
 * HEAD, in a temp dir of its own, with this checkout's installed dependencies linked in (as
 * `npm ci` would install them from the same lockfile).
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, hasChromium, launchBrowser, regions, type TestBrowser } from './browser.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const isCheckout = spawnSync('git', ['-C', ROOT, 'rev-parse', '--git-dir']).status === 0;

/** A clone of the committed HEAD alone in a temp dir: its parent holds nothing else. */
function cloneAlone(): { clone: string; parent: string; remove(): void } {
  const parent = mkdtempSync(join(tmpdir(), 'fresh-clone-'));
  const clone = join(parent, 'servicedesk-slack');
  execFileSync('git', ['clone', '-q', ROOT, clone], { timeout: 30_000 });
  symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(clone, 'node_modules'));
  return { clone, parent, remove: () => rmSync(parent, { recursive: true, force: true }) };
}

/** Starts `npm run sandbox`'s program in `cwd` on a free port, with the in-memory store. */
function startSandboxIn(cwd: string): { child: ChildProcess; stderr: () => string } {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', LOG_LEVEL: 'warn' };
  delete env.REDIS_URL;
  const child = spawn(process.execPath, ['tools/sandbox/cli.ts'], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  return { child, stderr: () => stderr };
}

if (!isCheckout) it.skip('needs a git checkout to clone');

describe.skipIf(!isCheckout)('a fresh clone with nothing beside it', () => {
  it('stops npm run sandbox at start, naming Slack’s missing description and how to restore it', async () => {
    const { clone, remove } = cloneAlone();
    try {
      rmSync(join(clone, 'vendor', 'slack', 'slack-api-specs.trimmed.json'));
      const { child, stderr } = startSandboxIn(clone);
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      const [code] = (await once(child, 'exit')) as [number | null];
      clearTimeout(timer);
      expect(code).toBe(1);
      expect(stderr()).toContain(
        `${join(clone, 'vendor', 'slack', 'slack-api-specs.trimmed.json')}, and it is not there`,
      );
      expect(stderr()).toContain('git checkout -- vendor/slack');
    } finally {
      remove();
    }
  }, 40_000);

  it('stops npm run slack-double at start with the same one line, exiting 1', async () => {
    const { clone, remove } = cloneAlone();
    try {
      rmSync(join(clone, 'vendor', 'slack', 'slack-api-specs.trimmed.json'));
      const ran = spawnSync(process.execPath, ['tools/slack-double/cli.ts', '--port', '0'], {
        cwd: clone,
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(ran.status).toBe(1);
      expect(ran.stderr).toMatch(
        /^slack-double: the Slack double cannot start: it needs Slack's Web API description at .*git checkout -- vendor\/slack/,
      );
    } finally {
      remove();
    }
  }, 40_000);
});

if (!hasChromium) {
  it.skip(`needs Debian’s chromium at ${CHROMIUM} (.ci/run installs it; apt-get install chromium)`);
}

describe.skipIf(!isCheckout || !hasChromium)('the sandbox of a fresh clone, in a browser', () => {
  let fresh: ReturnType<typeof cloneAlone> | undefined;
  let sandbox: ReturnType<typeof startSandboxIn> | undefined;
  let browser: TestBrowser | undefined;
  let url = '';
  /** What the sandbox printed before it was ready (the app's warnings and errors). */
  const beforeReady: string[] = [];

  beforeAll(async () => {
    fresh = cloneAlone();
    sandbox = startSandboxIn(fresh.clone);
    const lines = createInterface({ input: sandbox.child.stdout as NodeJS.ReadableStream });
    const exited = once(sandbox.child, 'exit').then(() => {
      throw new Error(`the sandbox exited before it was ready:\n${sandbox?.stderr()}`);
    });
    const ready = (async () => {
      for await (const line of lines) {
        if (line.startsWith('Sandbox ready')) return line;
        beforeReady.push(line);
      }
      return '';
    })();
    url = (await Promise.race([ready, exited])).match(/https?:\/\/\S+/)?.[0] ?? '';
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (sandbox && sandbox.child.exitCode === null) {
      sandbox.child.kill('SIGTERM');
      await once(sandbox.child, 'exit');
    }
    fresh?.remove();
  }, 20_000);

  it('has nothing beside the clone', () => {
    expect(readdirSync(fresh?.parent ?? '')).toEqual(['servicedesk-slack']);
  });

  it('starts with the app answered by Slack: no error before it is ready', () => {
    expect(beforeReady.filter((line) => line.includes('"level":50'))).toEqual([]);
  });

  it('files /ticket My laptop will not start, and the card shows the ticket', async () => {
    const page = await browser?.context.newPage();
    if (!page) throw new Error('the browser did not start');
    await page.goto(url);
    const { composer, modal, messages } = regions(page);
    await page.getByRole('button', { name: 'Channel it-help' }).waitFor();
    await composer.fill('/ticket My laptop will not start');
    await composer.press('Enter');
    await modal.getByRole('heading', { name: 'New ticket' }).waitFor({ timeout: 30_000 });
    await modal.getByRole('button', { name: 'File ticket' }).click();
    await modal.waitFor({ state: 'hidden' });
    const card = messages.locator('li.message', { hasText: 'My laptop will not start' }).last();
    await card.getByText(/filed IT-\d+/).waitFor({ timeout: 30_000 });
    expect(await page.getByText('dispatch_failed').count()).toBe(0);
    expect(sandbox?.stderr()).not.toContain('slack-double:');
  }, 60_000);
});
