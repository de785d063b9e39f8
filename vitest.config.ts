import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Crawls against loopback servers and the browser end-to-end test take seconds, not ms.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores here and in CI: two workers keep the crawl tests from starving each other.
    maxWorkers: 2,
  },
});
