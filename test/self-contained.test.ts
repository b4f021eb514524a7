/**
 * The benches, tools and scripts run without the tests' folder: what they share with the tests
 * (the whole stack, `eventually`) lives in tools/. Nothing reaching beside the checkout is
 * `test/slack-double/slack-files.test.ts`'s to check.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
// A relative path in a string: an import, a `new URL(…, import.meta.url)`, a path joined on.
const RELATIVE = /['"`]((?:\.\.?\/)+[^'"`\s$]*)['"`]/g;

function codeUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|js|cjs|mjs|sh)$/.test(entry.name))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

describe('the code outside test/', () => {
  it('has no bench, tool, script or source file reaching into test/', () => {
    const intoTests: string[] = [];
    for (const folder of ['src', 'tools', 'bench', 'scripts']) {
      for (const file of codeUnder(folder)) {
        const text = readFileSync(join(ROOT, file), 'utf8');
        for (const [, path = ''] of text.matchAll(RELATIVE)) {
          const target = relative(ROOT, resolve(ROOT, dirname(file), path));
          if (target.split(sep)[0] === 'test') intoTests.push(`${file}: ${path}`);
        }
      }
    }
    expect(intoTests).toEqual([]);
  });
});
