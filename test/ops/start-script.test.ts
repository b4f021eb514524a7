/**
 * `npm start` as a person runs it: package.json's own start command, in a directory of their
 * own, with or without a .env beside it. The directory links the project's sources, so the
 * command runs exactly as written.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { holdPort } from '../support/held-port.ts';

const root = new URL('../../', import.meta.url).pathname;
const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
};

// Everything the app needs, pointed at ports where nothing listens: enough to get past config.
const DOT_ENV = [
  'SLACK_BOT_TOKEN=xoxb-from-dot-env',
  'SLACK_SIGNING_SECRET=secret-from-dot-env',
  'SLACK_API_URL=http://127.0.0.1:9/api/',
  'SERVICE_DESK_URL=http://127.0.0.1:9',
  'SERVICE_DESK_API_KEY=sd_from_dot_env',
  'PORT=0',
  '',
].join('\n');

/** Ends the shell and the node it started: sh does not always hand its process over to node. */
function stop(shell: ChildProcess): void {
  if (shell.pid === undefined) return;
  try {
    process.kill(-shell.pid, 'SIGKILL');
  } catch {
    // The group has already exited.
  }
}

interface Outcome {
  code: number | null;
  output: string;
}

describe('npm start', () => {
  let dir: string;
  let child: ChildProcess | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sds-start-'));
    for (const entry of ['src', 'scripts', 'node_modules'])
      symlinkSync(join(root, entry), join(dir, entry));
  });
  afterEach(() => {
    if (child) stop(child);
    child = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  /** Runs the start command until it exits, or until `until` appears in its output. */
  async function start(env: Record<string, string>, until?: string): Promise<Outcome> {
    const started = spawn('sh', ['-c', scripts.start ?? ''], {
      cwd: dir,
      // Only what a bare shell has, and the Node running the tests first on PATH.
      env: { PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    child = started;
    let output = '';
    const seen = new Promise<void>((resolve) => {
      const read = (chunk: Buffer) => {
        output += String(chunk);
        if (until && output.includes(until)) resolve();
      };
      started.stdout?.on('data', read);
      started.stderr?.on('data', read);
    });
    const exited = once(started, 'exit').then(([code]) => code as number | null);
    const timeout = new Promise<'timeout'>((resolve) =>
      setTimeout(() => resolve('timeout'), 15_000).unref(),
    );
    const first = await Promise.race([exited, seen.then(() => 'seen' as const), timeout]);
    if (first !== 'seen' && first !== 'timeout') return { code: first, output };
    stop(started);
    return { code: null, output: first === 'timeout' ? `timed out:\n${output}` : output };
  }

  it('reads the variables a .env in the working directory sets, as npm run doctor does', async () => {
    writeFileSync(join(dir, '.env'), DOT_ENV);
    const { output } = await start({ LOG_LEVEL: 'info' }, 'listening on');
    expect(output).not.toContain('Configuration is not valid');
    expect(output).toContain('servicedesk-slack listening on');
  });

  it('says nothing of a .env that is not there', async () => {
    const env = Object.fromEntries(
      DOT_ENV.split('\n')
        .filter(Boolean)
        .map((line) => line.split('=', 2) as [string, string]),
    );
    const { output } = await start({ ...env, LOG_LEVEL: 'info' }, 'listening on');
    expect(output).toContain('servicedesk-slack listening on');
    expect(output).not.toContain('.env');
  });

  it('lets a variable set in the environment win over the same one in .env', async () => {
    writeFileSync(join(dir, '.env'), DOT_ENV);
    const { code, output } = await start({ PORT: 'abc' });
    expect(code).toBe(78);
    expect(output).toContain('PORT must be a whole number from 1 to 65535');
    expect(output).not.toMatch(/SLACK_BOT_TOKEN|SERVICE_DESK_URL/);
  });

  it('with nothing set, names every missing variable in one message and says where to set them', async () => {
    const { code, output } = await start({});
    expect(code).toBe(78);
    for (const name of [
      'SLACK_BOT_TOKEN',
      'SLACK_SIGNING_SECRET',
      'SERVICE_DESK_URL',
      'SERVICE_DESK_API_KEY',
    ])
      expect(output).toContain(`  - ${name} is required`);
    expect(output).toContain('or in a .env file where you run npm start');
  });

  it('stops with one line naming PORT, and no stack trace, when the port is in use', async () => {
    writeFileSync(join(dir, '.env'), DOT_ENV);
    const held = await holdPort();
    try {
      const { code, output } = await start({ PORT: String(held.port) });
      expect(code).toBe(1);
      expect(output).toContain(
        `port ${held.port} is in use: set PORT to a free one (in .env or the environment), or stop what holds it`,
      );
      expect(output).not.toMatch(/EADDRINUSE|\n\s+at /);
    } finally {
      await held.release();
    }
  });

  it('stops with the same line in Socket Mode, whose receiver does not report the port itself', async () => {
    writeFileSync(join(dir, '.env'), DOT_ENV);
    const held = await holdPort();
    try {
      const { code, output } = await start({
        PORT: String(held.port),
        SLACK_APP_TOKEN: 'xapp-1-from-the-test',
      });
      expect(code).toBe(1);
      expect(output).toContain(`port ${held.port} is in use: set PORT to a free one`);
      expect(output).not.toMatch(/EADDRINUSE|\n\s+at /);
    } finally {
      await held.release();
    }
  });
});
