import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HostBudget, STEP } from '../../../companion/crawl/host-budget.ts';
import { CrawlStore } from '../../../companion/store/crawl-store.ts';

let dir: string;
let store: CrawlStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'linkscent-budget-'));
  store = CrawlStore.open(dir, { create: true });
  store.enqueue([
    { url: 'http://cal.test/2026-11', score: 0.4, depth: 1, parent: null, host: 'cal.test' },
    { url: 'http://docs.test/a', score: 0.2, depth: 1, parent: null, host: 'docs.test' },
  ]);
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('HostBudget', () => {
  it('lowers a host one step per K pages without an on-topic page, and lifts it at the first', () => {
    const budget = new HostBudget(store, 3, 0.5);
    budget.settled('cal.test', false);
    budget.settled('cal.test', false);
    expect(budget.penalty('cal.test')).toBe(0);
    budget.settled('cal.test', false);
    expect(budget.penalty('cal.test')).toBe(STEP);
    expect(store.frontierEntry('http://cal.test/2026-11')!.score).toBeCloseTo(0.4 - STEP, 12);
    // The other host is untouched and now claimed first.
    expect(store.claimNext()!.url).toBe('http://docs.test/a');
    for (let i = 0; i < 3; i++) budget.settled('cal.test', undefined);
    expect(budget.penalty('cal.test')).toBe(2 * STEP);
    expect(store.frontierEntry('http://cal.test/2026-11')!.score).toBeCloseTo(0.4 - 2 * STEP, 12);
    budget.settled('cal.test', true);
    expect(budget.penalty('cal.test')).toBe(0);
    expect(store.frontierEntry('http://cal.test/2026-11')!.score).toBeCloseTo(0.4, 12);
  });

  it('keeps its steps in the store: a budget opened again (resume) neither repeats nor forgets them', () => {
    const budget = new HostBudget(store, 2, 0.5);
    // The pages themselves are what a resumed budget counts from.
    for (const url of ['http://cal.test/1', 'http://cal.test/2']) {
      store.recordPage({ url, finalUrl: url, status: 200, depth: 1, parent: null, score: 0, fetchedAt: '', bytes: 1, contentType: 'text/html', outcome: 'ok', relevance: 0 });
      budget.settled('cal.test', false);
    }
    expect(budget.penalty('cal.test')).toBe(STEP);
    const again = new HostBudget(store, 2, 0.5);
    expect(again.penalty('cal.test')).toBe(STEP);
    expect(store.frontierEntry('http://cal.test/2026-11')!.score).toBeCloseTo(0.4 - STEP, 12);
    store.recordPage({ url: 'http://cal.test/3', finalUrl: 'http://cal.test/3', status: 200, depth: 1, parent: null, score: 0, fetchedAt: '', bytes: 1, contentType: 'text/html', outcome: 'ok', relevance: 0 });
    again.settled('cal.test', false);
    expect(again.penalty('cal.test')).toBe(STEP);
  });
});
