/**
 * The test tiers by environment (STYLE.md 14), stated once: `vitest.config.ts` makes one Vitest
 * project of each (`npm run test:unit`, `test:dom`, `test:e2e`; `npm test` runs all three), and
 * test/architecture/test-tiers.test.ts checks that every DOM test sits in the DOM tier.
 *
 * A path ending in `/` is a folder (every test under it), any other a single test file.
 */

/** The built extension in Chromium and Firefox, the companion against loopback servers. */
export const E2E_TESTS = ['test/e2e/'];

/** Tests that need a DOM (happy-dom): the content script, the user's pages, the DOM walker. */
export const DOM_TESTS = [
  'test/extension/content/',
  'test/extension/ui/',
  'test/extension/worker/cross-side-scores.test.ts',
  'test/shared/segments/from-dom.test.ts',
  'test/shared/segments/parity.test.ts',
];

export type Tier = 'unit' | 'dom' | 'e2e';

const within = (file: string, paths: readonly string[]) => paths.some((path) => (path.endsWith('/') ? file.startsWith(path) : file === path));

/** The tier of a repository-relative test file. */
export function tierOf(file: string): Tier {
  if (within(file, E2E_TESTS)) return 'e2e';
  if (within(file, DOM_TESTS)) return 'dom';
  return 'unit';
}

/** Vitest `include` globs of the paths above. */
export function globsOf(paths: readonly string[]): string[] {
  return paths.map((path) => (path.endsWith('/') ? `${path}**/*.test.ts` : path));
}
