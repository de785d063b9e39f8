/**
 * The source tree's import graph, for the architecture tests: every `.ts` file's static imports
 * (`import`, `import type`, `export … from`, side-effect `import '…'`), relative specifiers
 * resolved to repository paths, and the strongly connected components of that graph (Tarjan
 * 1972), which are exactly its import cycles.
 *
 * Type-only imports count: they cost nothing at run time, but a type that two modules can only
 * name through each other is the same tangle for a reader, and the fix (a small `types.ts`) is
 * the same. Dynamic `import()` does not count: it is how a command loads its implementation
 * lazily, and it runs after both modules have been evaluated.
 */
import { existsSync, readdirSync, readFileSync, lstatSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** File → the files it imports, both as repository-relative paths. */
export type ImportGraph = Map<string, string[]>;

/** Folders that hold no source: dependencies, build output, the benches' downloaded corpora. */
const NOT_SOURCE = new Set(['node_modules', 'dist', 'data']);

/**
 * The source files under `dir` whose names match `pattern` (declaration files left out). Links
 * are not followed: the unpacked documentation corpora hold links that point nowhere.
 */
export function sourceFiles(dir: string, pattern: RegExp = /\.ts$/): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = lstatSync(path);
    if (stat.isDirectory()) {
      if (!NOT_SOURCE.has(name)) out.push(...sourceFiles(path, pattern));
    } else if (stat.isFile() && pattern.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/**
 * The static import specifiers of a module's text. Anchored at a line start, so an `import`
 * in a comment or a string is not taken for one; `[^'";]*?` lets a brace list span lines.
 */
export function staticImports(text: string): string[] {
  const pattern = /^\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s*)?['"]([^'"]+)['"]/gm;
  return [...text.matchAll(pattern)].map((match) => match[1]!);
}

/** The file a relative specifier names: as written, else with `.ts`, else its folder's `index.ts`. */
function resolveSpecifier(root: string, file: string, specifier: string): string | undefined {
  const base = resolve(dirname(file), specifier);
  for (const candidate of [base, `${base}.ts`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && lstatSync(candidate).isFile()) return relative(root, candidate);
  }
  return undefined;
}

/**
 * The graph of every `.ts` file under `folders` (relative to `root`). A relative specifier that
 * names no file is returned in `unresolved`, so a check never passes by losing edges.
 */
export function importGraph(root: string, folders: readonly string[]): { graph: ImportGraph; unresolved: string[] } {
  const graph: ImportGraph = new Map();
  const unresolved: string[] = [];
  for (const file of folders.flatMap((folder) => sourceFiles(join(root, folder)))) {
    const targets: string[] = [];
    for (const specifier of staticImports(readFileSync(file, 'utf8'))) {
      if (!specifier.startsWith('.')) continue;
      const target = resolveSpecifier(root, file, specifier);
      if (target === undefined) unresolved.push(`${relative(root, file)} → ${specifier}`);
      else targets.push(target);
    }
    graph.set(relative(root, file), targets);
  }
  return { graph, unresolved };
}

/**
 * The import cycles of `graph`: its strongly connected components with more than one file, or
 * one file that imports itself (Tarjan's algorithm, iterative so a deep graph cannot overflow
 * the stack). Each cycle is listed from its alphabetically first file, the others sorted.
 */
export function importCycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let next = 0;

  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    // Each frame: a node and how many of its edges have been followed.
    const frames: { node: string; edge: number }[] = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const target = edges[frame.edge++]!;
        if (!graph.has(target)) continue; // outside the folders looked at
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          frames.push({ node: target, edge: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      const selfImport = component.length === 1 && edges.includes(frame.node);
      if (component.length > 1 || selfImport) cycles.push(component.sort());
    }
  }
  return cycles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}
