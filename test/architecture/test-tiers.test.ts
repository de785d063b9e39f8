/**
 * The tiers of test/tiers.ts hold what they say: a test that builds a DOM (happy-dom, directly or
 * through the DOM helpers) is in the DOM tier, so `npm run test:unit` needs no DOM at all.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOM_TESTS, E2E_TESTS, tierOf } from '../tiers.ts';

const root = resolve(import.meta.dirname, '../..');

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return testFiles(path);
    return name.endsWith('.test.ts') ? [relative(root, path)] : [];
  });
}

/** happy-dom's environment comment, happy-dom itself, or a helper that makes a happy-dom window. */
const USES_DOM = /@vitest-environment happy-dom|from 'happy-dom'|\/(happy-dom-window|dom-support|page-dom)\.ts'/;

describe('test tiers', () => {
  const files = testFiles(join(root, 'test'));
  const self = relative(root, import.meta.filename); // names the markers without being a DOM test

  it('every test that builds a DOM is in the DOM tier (or end-to-end)', () => {
    const misplaced = files.filter((file) => file !== self && USES_DOM.test(readFileSync(join(root, file), 'utf8')) && tierOf(file) === 'unit');
    expect(misplaced).toEqual([]);
  });

  it('each tier path names tests that exist', () => {
    for (const path of [...DOM_TESTS, ...E2E_TESTS]) {
      expect(files.some((file) => (path.endsWith('/') ? file.startsWith(path) : file === path)), path).toBe(true);
    }
  });

  it('the unit tier holds most tests and the three tiers hold them all', () => {
    const counts = { unit: 0, dom: 0, e2e: 0 };
    for (const file of files) counts[tierOf(file)]++;
    expect(counts.unit).toBeGreaterThan(counts.dom + counts.e2e);
    expect(counts.unit + counts.dom + counts.e2e).toBe(files.length);
  });
});
