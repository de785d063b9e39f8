import { defineConfig } from 'vitest/config';
import { DOM_TESTS, E2E_TESTS, globsOf } from './test/tiers.ts';

const ALL = ['test/**/*.test.ts'];
const dom = globsOf(DOM_TESTS);
const e2e = globsOf(E2E_TESTS);

export default defineConfig({
  test: {
    // Crawls against loopback servers and the browser end-to-end test take seconds, not ms.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores here and in CI: two workers keep the crawl tests from starving each other.
    maxWorkers: 2,
    // The tiers by environment (test/tiers.ts); `vitest run --project unit` runs one.
    projects: [
      { extends: true, test: { name: 'unit', include: ALL, exclude: [...dom, ...e2e] } },
      { extends: true, test: { name: 'dom', include: dom } },
      { extends: true, test: { name: 'e2e', include: e2e } },
    ],
  },
});
