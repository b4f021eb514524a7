/** `npm run slack-double` as a person runs it: its help, and a port someone else holds. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { holdPort } from '../support/held-port.ts';

const CLI = new URL('../../tools/slack-double/cli.ts', import.meta.url).pathname;

/** Runs the CLI until it exits (killed after 15 s), with everything it printed. */
async function runToExit(args: string[]): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += String(chunk);
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += String(chunk);
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  try {
    const [code] = (await once(child, 'exit')) as [number | null];
    return { code, output };
  } finally {
    clearTimeout(timer);
  }
}

describe('npm run slack-double', () => {
  it('prints its usage for --help and exits 0 without listening', async () => {
    const { code, output } = await runToExit(['--help']);
    expect(code).toBe(0);
    expect(output).toMatch(/^Usage: npm run slack-double -- /);
    expect(output).toContain('--signing-secret');
    expect(output).not.toContain('listening');
  });

  it('stops with one line naming --port when the port is in use', async () => {
    const held = await holdPort();
    try {
      const { code, output } = await runToExit(['--port', String(held.port)]);
      expect(code).toBe(1);
      expect(output.trim()).toBe(
        `slack-double: port ${held.port} is in use: pass --port with a free one (--port 0 picks any), or stop what holds it`,
      );
    } finally {
      await held.release();
    }
  });
});
