/**
 * The local web refuses to start on a corpus that is not the expected one: a bench would print
 * figures for a web with sites or pages missing. The check runs before anything listens.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startLocalWeb } from '../../bench/support/local-web.ts';

const sitesDir = mkdtempSync(join(tmpdir(), 'linkscent-local-web-'));
afterAll(() => rmSync(sitesDir, { recursive: true, force: true }));

function page(pkg: string, path: string): void {
  mkdirSync(join(sitesDir, pkg, path, '..'), { recursive: true });
  writeFileSync(join(sitesDir, pkg, path), '<p>页</p>');
}

describe('startLocalWeb and the expected corpus', () => {
  it('stops with one line naming the first package that is missing', async () => {
    page('debian-faq-zh-cn', 'usr/share/doc/debian/FAQ/index.html');
    await expect(startLocalWeb({ sitesDir, port: 1 })).rejects.toThrow(/^local-web: package libreoffice-help-zh-cn is missing from .*; run bench\/fetch-debian-docs\.sh/);
  });

  it('with packages picked, checks their page counts', async () => {
    await expect(startLocalWeb({ sitesDir, port: 1, packages: ['debian-faq-zh-cn'] })).rejects.toThrow(
      /^local-web: package debian-faq-zh-cn has 1 HTML pages, expected 15–19 \(17 ± 10%\)/,
    );
  });
});
