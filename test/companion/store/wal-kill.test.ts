/**
 * A store killed with SIGKILL while its WAL holds more than SQLite's default checkpoint threshold
 * (1,000 frames; the store checkpoints at `WAL_CHECKPOINT_FRAMES`): opened again, it has every page
 * reported durable before the kill, once, none of the batch left open, and the frontier as those
 * pages left it. The WAL's frames past the database file are the committed pages' only copy, read
 * back by SQLite's recovery on open.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CrawlStore, STORE_FILE, WAL_CHECKPOINT_FRAMES } from '../../../companion/store/crawl-store.ts';
import { useTempStores } from './temp-stores.ts';

const CHILD = resolve(import.meta.dirname, '../support/store-kill-child.ts');
const stores = useTempStores('linkscent-wal-kill-');

/** Frames the WAL file holds room for, and the page size its header gives. */
function walFrames(wal: string): { frames: number; pageSize: number } {
  const header = Buffer.alloc(32);
  const fd = openSync(wal, 'r');
  try {
    readSync(fd, header, 0, 32, 0);
  } finally {
    closeSync(fd);
  }
  const pageSize = header.readUInt32BE(8);
  return { frames: Math.floor((statSync(wal).size - 32) / (pageSize + 24)), pageSize };
}

describe('a store killed with a long WAL', () => {
  it('keeps every page reported durable before SIGKILL, and loses the open batch whole', async () => {
    const dir = join(stores.dir, 'crawl');
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dir, '40'], { cwd: resolve(import.meta.dirname, '../../..'), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    const signal = await new Promise((done) => child.on('close', (_code, signal) => done(signal)));
    expect(err).toBe('');
    expect(signal).toBe('SIGKILL');
    const reported = out.trim().split('\n');
    expect(reported).toHaveLength(40);
    // The kill found the WAL past SQLite's default threshold and below the store's, never checkpointed:
    // the database file still holds only the page it was created with, the pages only the WAL.
    const { frames, pageSize } = walFrames(join(dir, `${STORE_FILE}-wal`));
    expect(frames).toBeGreaterThan(1000);
    expect(frames).toBeLessThan(WAL_CHECKPOINT_FRAMES);
    expect(statSync(join(dir, STORE_FILE)).size).toBe(pageSize);

    const store = CrawlStore.open(dir, { create: false });
    try {
      expect([...store.pages()].map((page) => page.url)).toEqual(reported);
      expect(store.page('http://a.test/lost')).toBeUndefined();
      expect(store.counts()).toEqual({ queued: 40 * 200, inFlight: 0, done: 0, dropped: 0, pages: 40 }); // the pages' own URLs were never queued
      expect(store.frontierEntry('http://a.test/39/199/' + 'x'.repeat(40))).toMatchObject({ state: 'queued', context: { anchor: '链接 199' } });
    } finally {
      store.close();
    }
  });
});
