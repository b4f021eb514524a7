/**
 * The container rules, checked statically (these machines have no Docker engine): multi-stage
 * on Node 24 slim, production dependencies only, a non-root user, a HEALTHCHECK on /healthz,
 * nothing secret baked in, a .dockerignore; and a .env.example naming every variable.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENV_VARIABLES } from '../../src/config.ts';

const root = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

interface Instruction {
  keyword: string;
  args: string;
}

/** Instructions per stage, with continuation lines joined and comments dropped. */
function stages(dockerfile: string): Instruction[][] {
  const logical = dockerfile
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const result: Instruction[][] = [];
  for (const line of logical) {
    const [keyword = '', ...rest] = line.split(/\s+/);
    const instruction = { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    if (instruction.keyword === 'FROM') result.push([]);
    result.at(-1)?.push(instruction);
  }
  return result;
}

describe('Dockerfile', () => {
  const all = stages(read('Dockerfile'));
  const final = all.at(-1) ?? [];
  const of = (stage: Instruction[], keyword: string) => stage.filter((i) => i.keyword === keyword);

  it('builds in more than one stage, each from Node 24 slim', () => {
    expect(all.length).toBeGreaterThanOrEqual(2);
    for (const stage of all)
      expect(stage[0]?.args).toMatch(/^node:24(\.\d+)*-slim(@sha256:\w+)?( AS \w+)?$/i);
  });

  it('installs production dependencies only, from the lock file', () => {
    const installs = all.flat().filter((i) => i.keyword === 'RUN' && /\bnpm\b/.test(i.args));
    expect(installs.length).toBeGreaterThan(0);
    for (const run of installs) {
      if (/\bnpm (ci|install|i)\b/.test(run.args)) {
        expect(run.args).toMatch(/\bnpm ci\b/);
        expect(run.args).toMatch(/--omit=dev\b/);
      }
    }
  });

  it('runs the sources by type stripping, with no build step', () => {
    expect(of(final, 'COPY').map((i) => i.args)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^src \.\/src$/)]),
    );
    expect(of(final, 'CMD').at(-1)?.args).toBe('["node", "src/main.ts"]');
    expect(
      all.flat().some((i) => i.keyword === 'RUN' && /\b(tsc|npm run build)\b/.test(i.args)),
    ).toBe(false);
  });

  it('ships manifest.yml, which the doctor compares scopes against', () => {
    expect(of(final, 'COPY').some((i) => /\bmanifest\.yml\b/.test(i.args))).toBe(true);
  });

  it('runs as a user other than root', () => {
    const user = of(final, 'USER').at(-1)?.args;
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^(root|0)(:|$)/);
    const userIndex = final.findIndex((i) => i.keyword === 'USER');
    expect(
      final.slice(userIndex).some((i) => i.keyword === 'USER' && /^(root|0)/.test(i.args)),
    ).toBe(false);
  });

  it('has a HEALTHCHECK on /healthz', () => {
    const check = of(final, 'HEALTHCHECK').at(-1)?.args ?? '';
    expect(check).toContain('/healthz');
    expect(check).toMatch(/--interval=\d+s/);
  });

  it('bakes no secret in: no token, secret, key or password in ENV or ARG, no .env copied', () => {
    for (const instruction of all.flat()) {
      if (instruction.keyword === 'ENV' || instruction.keyword === 'ARG') {
        expect(instruction.args).not.toMatch(/TOKEN|SECRET|KEY|PASSWORD|xox[abp]-|xapp-/i);
      }
      if (instruction.keyword === 'COPY' || instruction.keyword === 'ADD') {
        expect(instruction.args).not.toMatch(/(^|\s)\.env\b|(^|\s)\.\s/);
      }
    }
  });
});

describe('.dockerignore', () => {
  const ignored = read('.dockerignore')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));

  it('keeps secrets, git history and local modules out of the build context', () => {
    expect(ignored).toEqual(expect.arrayContaining(['.env', '.env.*', '.git', 'node_modules']));
  });

  it('keeps the tools, tests and benchmarks out of the build context', () => {
    expect(ignored).toEqual(expect.arrayContaining(['tools', 'test', 'bench']));
  });
});

describe('what ships', () => {
  /** Every relative import of every TypeScript file under `dir`, with the file it is in. */
  function importsUnder(dir: string): { file: string; target: string }[] {
    const found: { file: string; target: string }[] = [];
    const files = readdirSync(new URL(dir, root), { recursive: true, encoding: 'utf8' });
    for (const file of files.filter((name) => name.endsWith('.ts'))) {
      const path = new URL(`${dir}${file}`, root);
      const text = readFileSync(path, 'utf8');
      for (const match of text.matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']+)'/g)) {
        const target = new URL(match[1] ?? '', path).pathname.slice(root.pathname.length);
        found.push({ file: `${dir}${file}`, target });
      }
    }
    return found;
  }

  it('is src/ alone: nothing under src/ imports a tool, a test or a benchmark', () => {
    const imports = importsUnder('src/');
    expect(imports.length).toBeGreaterThan(100);
    const outside = imports.filter(({ target }) => !target.startsWith('src/'));
    expect(outside).toEqual([]);
  });

  it('has no import circle: no module of src/ reaches itself through its imports', () => {
    const targets = new Map<string, string[]>();
    for (const { file, target } of importsUnder('src/'))
      targets.set(file, [...(targets.get(file) ?? []), target]);
    const circles: string[][] = [];
    const done = new Set<string>();
    // Depth first: a module met again on the path it is being walked from closes a circle.
    const walk = (file: string, path: string[]) => {
      const at = path.indexOf(file);
      if (at >= 0) return void circles.push([...path.slice(at), file]);
      if (done.has(file)) return;
      for (const target of targets.get(file) ?? []) walk(target, [...path, file]);
      done.add(file);
    };
    for (const file of targets.keys()) walk(file, []);
    expect(circles).toEqual([]);
  });
});

describe('.env.example', () => {
  const names = read('.env.example')
    .split(/\r?\n/)
    .map((line) => /^([A-Z][A-Z0-9_]*)=/.exec(line.trim())?.[1])
    .filter((name): name is string => name !== undefined);

  it('names every variable the app reads', () => {
    expect([...names].sort()).toEqual([...ENV_VARIABLES].sort());
  });

  it('holds no secret values', () => {
    const text = read('.env.example');
    for (const name of [
      'SLACK_BOT_TOKEN',
      'SLACK_SIGNING_SECRET',
      'SLACK_APP_TOKEN',
      'SERVICE_DESK_API_KEY',
    ]) {
      expect(text).toMatch(new RegExp(`^${name}=$`, 'm'));
    }
  });
});
