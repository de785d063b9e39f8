import { describe, expect, it } from 'vitest';
import { importCycles, staticImports, type ImportGraph } from './import-graph.ts';

const graphOf = (edges: Record<string, string[]>): ImportGraph => new Map(Object.entries(edges));

describe('importCycles (Tarjan) on hand-made graphs', () => {
  it('finds nothing in a graph without cycles, diamonds included', () => {
    expect(importCycles(graphOf({ a: ['b', 'c'], b: ['d'], c: ['d'], d: [] }))).toEqual([]);
  });

  it('finds a two-file cycle, a longer one and a self-import, each once, and nothing else', () => {
    const graph = graphOf({
      'fetch-page': ['fetch-errors', 'charset'],
      'fetch-errors': ['fetch-page'],
      charset: [],
      a: ['b'],
      b: ['c'],
      c: ['a', 'charset'],
      self: ['self'],
      outside: ['node-module-not-in-graph'],
    });
    expect(importCycles(graph)).toEqual([['a', 'b', 'c'], ['fetch-errors', 'fetch-page'], ['self']]);
  });

  it('keeps two cycles joined by a one-way edge apart', () => {
    const graph = graphOf({ a: ['b'], b: ['a', 'c'], c: ['d'], d: ['c'] });
    expect(importCycles(graph)).toEqual([['a', 'b'], ['c', 'd']]);
  });

  it('handles a chain deeper than the call stack would', () => {
    const edges: Record<string, string[]> = {};
    for (let i = 0; i < 50_000; i++) edges[`n${i}`] = [`n${i + 1}`];
    edges.n50000 = ['n0'];
    expect(importCycles(graphOf(edges))[0]).toHaveLength(50_001);
  });
});

describe('staticImports', () => {
  it('reads every static form, across lines, and ignores dynamic imports and comments', () => {
    const text = [
      "import { a } from './a.ts';",
      "import type { B } from '../b.ts';",
      'import {',
      '  c,',
      '  d,',
      "} from './cd.ts';",
      "export { e } from './e.ts';",
      "export * from './f.ts';",
      "import './side-effect.ts';",
      "const lazy = await import('./lazy.ts');",
      " * import { x } from './in-a-comment.ts' is not at a line start as code",
    ].join('\n');
    expect(staticImports(text)).toEqual(['./a.ts', '../b.ts', './cd.ts', './e.ts', './f.ts', './side-effect.ts']);
  });
});
