/**
 * A clone with nothing beside it runs the double, the sandbox and the manifest checks: Slack's
 * descriptions are vendored in the repository with their licences, and no file reads a folder
 * beside the checkout.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REPOSITORY_ROOT, VENDORED_SLACK_FILES } from '../../tools/slack-double/slack-files.ts';

/** Whether a path is the repository or in it. */
const inside = (path: string) => {
  const rel = relative(REPOSITORY_ROOT, path);
  return !isAbsolute(rel) && !/^\.\.(\/|$)/.test(rel);
};

/** Every file of the code, tests, benches, scripts and CI, with its path. */
function sources(): string[] {
  const files: string[] = [
    join(REPOSITORY_ROOT, '.ci', 'run'),
    join(REPOSITORY_ROOT, 'package.json'),
  ];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ts|cjs|mjs|js|sh)$/.test(name)) files.push(path);
    }
  };
  for (const dir of ['src', 'tools', 'test', 'bench', 'scripts']) walk(join(REPOSITORY_ROOT, dir));
  return files;
}

describe('Slack’s descriptions in the repository', () => {
  it('keeps each file the double and the manifest checks read inside the repository, with its MIT licence beside it', () => {
    for (const { path, licence } of VENDORED_SLACK_FILES) {
      expect(inside(path), path).toBe(true);
      expect(existsSync(path), path).toBe(true);
      expect(readFileSync(licence, 'utf8'), licence).toMatch(/^MIT License/);
    }
  });

  it('resolves every path a file names relative to itself inside the repository', () => {
    const outside: string[] = [];
    const relativeUrl = /new URL\(\s*(['"`])(\.{1,2}\/[^'"`]*)\1\s*,\s*import\.meta\.url\s*\)/g;
    for (const file of sources()) {
      const text = readFileSync(file, 'utf8');
      for (const [, , target] of text.matchAll(relativeUrl)) {
        const resolved = fileURLToPath(new URL(target ?? '', pathToFileURL(file)));
        if (!inside(resolved)) outside.push(`${relative(REPOSITORY_ROOT, file)}: ${target}`);
      }
    }
    expect(outside).toEqual([]);
  });

  it('names no folder beside the checkout in any source, test, bench, script or CI step', () => {
    // Built here so that this file does not name it itself.
    const beside = new RegExp(`\\.\\./${'shared'}\\b|\\$root/\\.\\.|['"]\\.\\.['"]`);
    const naming = sources()
      .filter((file) => beside.test(readFileSync(file, 'utf8')))
      .map((file) => relative(REPOSITORY_ROOT, file));
    expect(naming).toEqual([]);
  });
});
