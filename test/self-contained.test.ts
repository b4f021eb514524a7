/**
 * The repository stands on its own: its code reads nothing beside it (what it needs of others is
 * vendored in vendor/), and the benches, tools and scripts run without the tests' folder.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const CODE = /\.(ts|js|cjs|mjs|sh)$/;
// The folder the project's checkouts sit in on the build machine (spelt so this file is not one).
const BESIDE = ['', 'work', ''].join('/');
// A relative path in a string: an import, a `new URL(…, import.meta.url)`, a path joined on.
const RELATIVE = /['"`]((?:\.\.?\/)+[^'"`\s$]*)['"`]/g;

function filesUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && CODE.test(entry.name))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

/** Where each relative path in a file leads, from the repository's root ('..' when outside). */
function pathsIn(file: string): { path: string; target: string }[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return [...text.matchAll(RELATIVE)].map(([, path = '']) => ({
    path,
    target: relative(ROOT, resolve(ROOT, file, '..', path)),
  }));
}

describe('the repository on its own', () => {
  it('has no code reaching beside the repository, nor a bench, tool or script reaching into test/', () => {
    const outside: string[] = [];
    const intoTests: string[] = [];
    for (const folder of ['src', 'tools', 'bench', 'scripts', 'test']) {
      for (const file of filesUnder(folder)) {
        const text = readFileSync(join(ROOT, file), 'utf8');
        if (text.includes(BESIDE)) outside.push(`${file}: ${BESIDE}`);
        for (const { path, target } of pathsIn(file)) {
          if (target === '..' || target.startsWith(`..${sep}`)) outside.push(`${file}: ${path}`);
          if (folder !== 'test' && target.split(sep)[0] === 'test')
            intoTests.push(`${file}: ${path}`);
        }
      }
    }
    expect(outside).toEqual([]);
    expect(intoTests).toEqual([]);
  });
});
