/**
 * `npm run build` gives two loadable extensions: the checker finds no missing file and no wrong
 * shape in either, and each background has its browser's form. The extension is built first
 * when dist/ is missing or older than the sources (about a minute on two cores).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs module without type declarations
import { checkBuiltExtension } from '../../scripts/check-extension.mjs';
import { distDir, ensureBuilt } from '../support/ensure-built.ts';

const check = checkBuiltExtension as (dir: string, target: 'chromium' | 'firefox') => string[];
const manifestOf = (target: 'chromium' | 'firefox') => JSON.parse(readFileSync(join(distDir(target), 'manifest.json'), 'utf8'));

describe('the manifest checker', () => {
  it('reports a missing file, a wrong background and an inline script', () => {
    const dir = mkdtempSync(join(tmpdir(), 'linkscent-check-'));
    try {
      mkdirSync(join(dir, 'ui'));
      writeFileSync(join(dir, 'ui/popup.html'), '<script>alert(1)</script><script type="module" src="./gone.js"></script>');
      writeFileSync(
        join(dir, 'manifest.json'),
        JSON.stringify({
          manifest_version: 3,
          name: 'x',
          version: '1.0.0-beta',
          background: { service_worker: 'sw.js' },
          action: { default_popup: 'ui/popup.html' },
          content_security_policy: { extension_pages: "script-src 'self'" },
        }),
      );
      const problems = check(dir, 'firefox').join('\n');
      expect(problems).toMatch(/background.scripts is missing/);
      expect(problems).toMatch(/gecko.id is missing/);
      expect(problems).toMatch(/version "1.0.0-beta"/);
      expect(problems).toMatch(/wasm-unsafe-eval/);
      expect(problems).toMatch(/manifest names sw.js, which is missing/);
      expect(problems).toMatch(/ui\/popup.html has an inline script/);
      expect(problems).toMatch(/ui\/popup.html references .\/gone.js/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('npm run build', () => {
  beforeAll(() => {
    ensureBuilt('chromium', 'firefox');
  }, 900_000);

  it.each(['chromium', 'firefox'] as const)('gives a loadable dist/%s', (target) => {
    expect(check(distDir(target), target)).toEqual([]);
  });

  it('gives Chromium a module service worker, the offscreen permission and no Firefox keys', () => {
    const manifest = manifestOf('chromium');
    expect(manifest.background).toEqual({ service_worker: expect.any(String), type: 'module' });
    expect(manifest.permissions).toEqual(expect.arrayContaining(['offscreen', 'contextMenus', 'activeTab']));
    expect(manifest.browser_specific_settings).toBeUndefined();
  });

  it('gives Firefox an event page and a gecko id, and no offscreen permission', () => {
    const manifest = manifestOf('firefox');
    expect(manifest.background.scripts).toHaveLength(1);
    expect(manifest.background.service_worker).toBeUndefined();
    expect(manifest.browser_specific_settings.gecko.id).toMatch(/@/);
    expect(manifest.permissions).not.toContain('offscreen');
    // Content scripts read their settings from storage.local as they start (page-settings.ts).
    expect(manifest.permissions).toContain('storage');
  });

  it('asks for no permission beyond what the features need', () => {
    for (const target of ['chromium', 'firefox'] as const) {
      const manifest = manifestOf(target);
      const allowed = ['contextMenus', 'activeTab', 'storage', 'offscreen'];
      expect(manifest.permissions.filter((p: string) => !allowed.includes(p))).toEqual([]);
      // Only loopback over http, where the companion's service listens (any port).
      expect(manifest.host_permissions).toEqual(['http://127.0.0.1/*', 'http://localhost/*']);
      expect(manifest.content_security_policy.extension_pages).toContain("'wasm-unsafe-eval'");
    }
  });

  it('injects the content script as one classic file, and exposes no file to pages', () => {
    for (const target of ['chromium', 'firefox'] as const) {
      const [script, ...others] = manifestOf(target).content_scripts;
      expect(others).toEqual([]);
      expect(script.js).toHaveLength(1);
      const code = readFileSync(join(distDir(target), script.js[0]), 'utf8');
      // No loader: a module statement or a dynamic import would need files pages can fetch.
      expect(code).not.toMatch(/^\s*(import|export)\b/m);
      expect(code).not.toMatch(/\bimport\s*\(/);
      expect(manifestOf(target).web_accessible_resources).toBeUndefined();
    }
  });

  it('ships the jieba wasm file and both locales', () => {
    for (const target of ['chromium', 'firefox'] as const) {
      const files = readdirSync(distDir(target), { recursive: true }).map(String);
      const wasm = files.filter((file) => file.endsWith('.wasm'));
      expect(wasm).toHaveLength(1);
      expect(statSync(join(distDir(target), wasm[0]!)).size).toBeGreaterThan(1_000_000);
      expect(() => readFileSync(join(distDir(target), '_locales/zh_CN/messages.json'))).not.toThrow();
      expect(() => readFileSync(join(distDir(target), '_locales/en/messages.json'))).not.toThrow();
    }
  });
});
