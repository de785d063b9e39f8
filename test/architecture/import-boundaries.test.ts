/**
 * The layout's boundaries, checked mechanically (STYLE.md 2): a platform call or a reach across
 * contexts fails here instead of waiting for a reviewer to notice.
 */
import { readFileSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph, sourceFiles } from './import-graph.ts';

const root = resolve(import.meta.dirname, '../..');

const scriptFiles = (dir: string) => sourceFiles(dir, /\.(ts|mts|mjs|js)$/);

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
  return scriptFiles(join(root, folder)).flatMap((file) =>
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

  it('shared/ imports neither Dexie nor its export add-on: the model file is a plain codec', () => {
    const bad = importTargets('shared').filter(({ target }) => /^dexie(-export-import)?(\/|$)/.test(target));
    expect(bad).toEqual([]);
  });

  it('the service and the benchmarks import nothing from the command line (cli/ is the top layer)', () => {
    const bad = [...importTargets('companion/service'), ...importTargets('bench')].filter(({ target }) => target.startsWith('companion/cli/'));
    expect(bad).toEqual([]);
  });

  it('tools/ imports Node built-ins only: its WARC reader checks the product without its code or warcio', () => {
    const bad = importTargets('tools').filter(({ target }) => !target.startsWith('node:'));
    expect(bad).toEqual([]);
  });

  it('no import cycle anywhere in shared/, companion/, extension/, bench/ or tools/', () => {
    const { graph, unresolved } = importGraph(root, ['shared', 'companion', 'extension', 'bench', 'tools']);
    expect(unresolved, 'relative imports that name no file').toEqual([]);
    expect(graph.size).toBeGreaterThan(100);
    const cycles = importCycles(graph).map((files) => files.join(' ↔ '));
    expect(cycles, 'import cycles (move the shared types into a small types.ts)').toEqual([]);
  });
});
