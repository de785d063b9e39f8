/**
 * The layout's boundaries, checked mechanically (STYLE.md 2): a platform call or a reach across
 * contexts fails here instead of waiting for a reviewer to notice.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|mts|mjs|js)$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** Every module specifier a file imports, statically or dynamically. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers: string[] = [];
  const pattern = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;
  for (const match of text.matchAll(pattern)) specifiers.push((match[1] ?? match[2] ?? match[3])!);
  return specifiers;
}

/** Imports of `folder`'s files, as repository-relative targets (bare packages kept as is). */
function importTargets(folder: string): { file: string; target: string }[] {
  return sourceFiles(join(root, folder)).flatMap((file) =>
    importsOf(file).map((spec) => ({
      file: relative(root, file),
      target: spec.startsWith('.') ? relative(root, resolve(dirname(file), spec)) : spec,
    })),
  );
}

describe('import boundaries', () => {
  it('shared/ imports no Node built-in and nothing from the extension or the companion', () => {
    const bad = importTargets('shared').filter(
      ({ target }) =>
        target.startsWith('node:') ||
        target.startsWith('companion/') ||
        target.startsWith('extension/') ||
        ['fs', 'path', 'http', 'https', 'url', 'crypto', 'zlib', 'jieba-wasm', 'better-sqlite3', 'fake-indexeddb'].includes(target),
    );
    expect(bad).toEqual([]);
  });

  it('the companion never imports extension code', () => {
    expect(importTargets('companion').filter(({ target }) => target.startsWith('extension/'))).toEqual([]);
  });

  it('the extension never imports companion code', () => {
    expect(importTargets('extension').filter(({ target }) => target.startsWith('companion/'))).toEqual([]);
  });

  it('the content script only extracts and paints: no worker, model, background, jieba or comlink', () => {
    const bad = importTargets('extension/content').filter(
      ({ target }) =>
        /^extension\/(background|worker|offscreen|storage)\//.test(target) ||
        target.startsWith('shared/model/naive-bayes') ||
        target.startsWith('shared/tokens') ||
        ['jieba-wasm', 'jieba-wasm/web', 'comlink', 'dexie'].includes(target),
    );
    expect(bad).toEqual([]);
  });
});
