/** `npm run sandbox`: one process, one printed URL, a clean stop on SIGTERM. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { holdPort } from '../support/held-port.ts';

const CLI = new URL('../../tools/sandbox/cli.ts', import.meta.url).pathname;

describe('npm run sandbox', () => {
  it('prints one URL that serves the simulator, and stops cleanly on SIGTERM', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', LOG_LEVEL: 'warn' };
    delete env.REDIS_URL;
    const child = spawn(process.execPath, [CLI], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    try {
      const lines = createInterface({ input: child.stdout });
      const [first] = (await once(lines, 'line')) as [string];
      const urls = first.match(/https?:\/\/\S+/g) ?? [];
      expect(urls).toHaveLength(1);
      expect(first).toContain('in-memory store');
      const response = await fetch(urls[0] ?? '');
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('Slack simulator');
      child.kill('SIGTERM');
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(code).toBe(0);
    } finally {
      clearTimeout(timer);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('starts an organization of two workspaces with --organization, the app installed in both and no token printed', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', LOG_LEVEL: 'warn' };
    delete env.REDIS_URL;
    const child = spawn(process.execPath, [CLI, '--organization'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += String(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += String(chunk);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    try {
      // The app's own warnings may come first (it starts before the sandbox installs it).
      const lines = createInterface({ input: child.stdout });
      let ready = '';
      for await (const line of lines) {
        if (!line.startsWith('Sandbox ready')) continue;
        ready = line;
        break;
      }
      expect(ready).toContain('an organization of two workspaces, the app installed in both');
      const url = ready.match(/https?:\/\/\S+/)?.[0] ?? '';
      const state = (await (await fetch(`${url}/api/state?team=T0002`)).json()) as {
        team: { name: string };
        workspaces: { name: string }[];
      };
      expect(state.team.name).toBe('Acme EU');
      expect(state.workspaces.map((w) => w.name)).toEqual(['Acme', 'Acme EU']);
      child.kill('SIGTERM');
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(code).toBe(0);
      expect(output).not.toMatch(/xox[bp]-/);
    } finally {
      clearTimeout(timer);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('refuses a PORT that is not a port, naming the variable', async () => {
    const child = spawn(process.execPath, [CLI], {
      env: { ...process.env, PORT: 'eighty' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += String(chunk);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    try {
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(code).toBe(78);
      expect(stderr).toContain('PORT must be a whole number');
    } finally {
      clearTimeout(timer);
    }
  });

  it('stops with one line naming PORT when the port is in use', async () => {
    const held = await holdPort();
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(held.port) };
    delete env.REDIS_URL;
    const child = spawn(process.execPath, [CLI], { env, stdio: ['ignore', 'pipe', 'pipe'] });
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
      expect(code).toBe(1);
      expect(output.trim()).toBe(
        `port ${held.port} is in use: set PORT to a free one (PORT=3001 npm run sandbox), or stop what holds it`,
      );
    } finally {
      clearTimeout(timer);
      await held.release();
    }
  });
});
