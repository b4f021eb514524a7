import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { holdPort } from '../support/held-port.ts';

const CLI = 'tools/emulator/cli.ts';

interface Run {
  child: ChildProcess;
  output: () => string;
}

function run(args: string[], env: Record<string, string> = {}): Run {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, EMULATOR_KEYS: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  return { child, output: () => text };
}

// Waits (bounded) for the banner and returns the URL it announces.
async function listeningUrl(cli: Run, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const match = /listening on (http:\/\/\S+)/.exec(cli.output());
    if (match?.[1]) return match[1];
    if (cli.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no "listening on" line; output so far:\n${cli.output()}`);
}

/** The whole banner: its lines are separate writes, so a loaded machine can split them. */
async function banner(cli: Run, timeoutMs = 10_000): Promise<string> {
  await listeningUrl(cli, timeoutMs);
  const deadline = Date.now() + timeoutMs;
  while (!cli.output().includes('capabilities:') && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return cli.output();
}

async function exitCode(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const [code] = (await once(child, 'exit')) as [number | null];
  return code;
}

describe('emulator CLI', () => {
  let cli: Run | undefined;
  afterEach(() => {
    if (cli && cli.child.exitCode === null) cli.child.kill('SIGKILL');
    cli = undefined;
  });

  it('prints the real port for --port 0, answers requests and exits 0 on SIGTERM', async () => {
    cli = run(['--port', '0', '--variant', 'b']);
    const url = await listeningUrl(cli);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(url).not.toMatch(/:0$/);
    const response = await fetch(`${url}/service-desk/api/v1/tickets/`, {
      headers: { Authorization: 'AccessKey sd_acme_rw' },
    });
    expect(response.status).toBe(200);
    cli.child.kill('SIGTERM');
    expect(await exitCode(cli.child)).toBe(0);
  });

  it('lists the demo keys in its banner', async () => {
    cli = run(['--port', '0']);
    expect(await banner(cli)).toContain('acme/rw=sd_acme_rw');
    cli.child.kill('SIGINT');
    expect(await exitCode(cli.child)).toBe(0);
  });

  it('hides keys that come from EMULATOR_KEYS', async () => {
    cli = run(['--port', '0'], { EMULATOR_KEYS: 'initech:rw:very_secret_key' });
    const shown = await banner(cli);
    expect(shown).toContain('initech/rw=');
    expect(shown).not.toContain('very_secret_key');
    cli.child.kill('SIGTERM');
    expect(await exitCode(cli.child)).toBe(0);
  });

  it('states its capabilities and webhook target in its banner, never the webhook secret', async () => {
    cli = run([
      '--port',
      '0',
      '--no-updated-after',
      '--webhook-url',
      'http://127.0.0.1:9/hook',
      '--webhook-secret',
      'whsec_leaky_secret',
    ]);
    const shown = await banner(cli);
    expect(shown).toContain(
      'capabilities: updated_at on, updated_after off, webhooks http://127.0.0.1:9/hook (HMAC-signed)',
    );
    expect(shown).not.toContain('whsec_leaky_secret');
    cli.child.kill('SIGTERM');
    expect(await exitCode(cli.child)).toBe(0);
  });

  it('exits 2 with a clear message for a bad flag value', async () => {
    cli = run(['--port', 'eighty']);
    expect(await exitCode(cli.child)).toBe(2);
    expect(cli.output()).toContain('--port must be a whole number from 0 to 65535');
  });

  it('stops with one line naming --port when the port is in use', async () => {
    const held = await holdPort();
    try {
      cli = run(['--port', String(held.port)]);
      expect(await exitCode(cli.child)).toBe(1);
      expect(cli.output().trim()).toBe(
        `emulator: port ${held.port} is in use: pass --port with a free one (--port 0 picks any), or stop what holds it`,
      );
    } finally {
      await held.release();
    }
  });

  it('exits 2 for an unknown flag', async () => {
    cli = run(['--colour', 'blue']);
    expect(await exitCode(cli.child)).toBe(2);
    expect(cli.output()).toContain('--colour');
  });

  it('exits 2 for a malformed EMULATOR_KEYS without printing it', async () => {
    cli = run(['--port', '0'], { EMULATOR_KEYS: 'acme:admin:leaky_secret' });
    expect(await exitCode(cli.child)).toBe(2);
    expect(cli.output()).toContain('EMULATOR_KEYS entry 1');
    expect(cli.output()).not.toContain('leaky_secret');
  });
});
