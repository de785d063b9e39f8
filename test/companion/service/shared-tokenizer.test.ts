/**
 * Every crawl of the service shares one tokenizer, also those that start together: with the
 * tokenizer loaded on first use, each crawl that asked before the load settled made one of its
 * own (seven tokenizers, each with a 50,000-text cache, alive in the soak bench).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CrawlManager } from '../../../companion/service/crawl-manager.ts';
import { ModelRegistry } from '../../../companion/service/model-registry.ts';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('CrawlManager', () => {
  it('gives crawls that ask at once the same tokenizer', { timeout: 30_000 }, async () => {
    dir = mkdtempSync(join(tmpdir(), 'linkscent-manager-'));
    const manager = new CrawlManager({ crawlsDir: join(dir, 'crawls'), models: new ModelRegistry(join(dir, 'models')), log: () => {} });
    const tokenizers = await Promise.all(Array.from({ length: 5 }, () => manager.tokenizer()));
    expect(new Set(tokenizers).size).toBe(1);
    expect(await manager.tokenizer()).toBe(tokenizers[0]);
  });
});
