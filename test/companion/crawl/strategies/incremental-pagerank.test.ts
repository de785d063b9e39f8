import { describe, expect, it } from 'vitest';
import { IncrementalPageRank } from '../../../../companion/crawl/strategies/incremental-pagerank.ts';

type Links = Record<string, { to: string; weight: number }[]>;

/**
 * The hand-worked graph (d = ½, so b = ½): A → B (w 1), A → C (w ½); B → C (w 1); C → A (w 1),
 * C → D (w 0); D → E (w 1); E a frontier page, its links unknown.
 *   x_A = ½ + ½·(1/2)·x_C           x_B = ½ + ½·(1/2)·x_A
 *   x_C = ½ + ½·((½/2)·x_A + x_B)   x_D = ½ + ½·(0/2)·x_C = ½     x_E = ½ + ½·x_D = ¾
 * ⇒ x_A = ½ + x_C/4, x_C = ¾ + x_A/4 ⇒ (15/16)·x_A = 11/16: x_A = 11/15, x_B = 41/60, x_C = 14/15.
 */
const FIVE: Links = {
  A: [
    { to: 'B', weight: 1 },
    { to: 'C', weight: 0.5 },
  ],
  B: [{ to: 'C', weight: 1 }],
  C: [
    { to: 'A', weight: 1 },
    { to: 'D', weight: 0 },
  ],
  D: [{ to: 'E', weight: 1 }],
};
const HAND = { A: 11 / 15, B: 41 / 60, C: 14 / 15, D: 1 / 2, E: 3 / 4 };

/** The batch answer, by Jacobi iteration of x = b + d·Mᵀx from scratch: what incremental must equal. */
function batch(links: Links, nodes: string[], d: number): Map<string, number> {
  let x = new Map(nodes.map((n) => [n, 0]));
  for (let it = 0; it < 2000; it++) {
    const next = new Map(nodes.map((n) => [n, 1 - d]));
    for (const [from, out] of Object.entries(links)) for (const { to, weight } of out) next.set(to, next.get(to)! + (d * weight * x.get(from)!) / out.length);
    x = next;
  }
  return x;
}

describe('IncrementalPageRank', () => {
  it('gives the hand-worked ranks of the five-node graph, in any order the pages arrive', () => {
    for (const order of [['A', 'B', 'C', 'D'], ['D', 'C', 'B', 'A'], ['C', 'A', 'D', 'B']]) {
      const graph = new IncrementalPageRank({ damping: 0.5, epsilon: 1e-12 });
      for (const page of order) graph.setLinks(page, FIVE[page]!);
      for (const [node, x] of Object.entries(HAND)) expect(graph.rank(node), `${order.join('')}: ${node}`).toBeCloseTo(x, 10);
      expect(graph.size).toBe(5);
      expect(graph.hasLinks('E')).toBe(false);
      expect(graph.hasLinks('A')).toBe(true);
    }
  });

  it('gives PageRank (every weight 1) equal to the batch computation, with d = 0.85', () => {
    const unweighted: Links = Object.fromEntries(Object.entries(FIVE).map(([k, out]) => [k, out.map((l) => ({ ...l, weight: 1 }))]));
    const graph = new IncrementalPageRank({ epsilon: 1e-12 });
    for (const page of ['B', 'A', 'D', 'C']) graph.setLinks(page, unweighted[page]!);
    const want = batch(unweighted, ['A', 'B', 'C', 'D', 'E'], 0.85);
    for (const [node, x] of want) expect(graph.rank(node)).toBeCloseTo(x, 9);
    // By hand for one: D has only C's link, so x_D = 0.15 + 0.85·x_C/2.
    expect(graph.rank('D')).toBeCloseTo(0.15 + (0.85 * graph.rank('C')) / 2, 9);
  });

  it('equals the batch ranks on a random growing graph', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const links: Links = {};
    const graph = new IncrementalPageRank({ epsilon: 1e-10 });
    const nodes = Array.from({ length: 200 }, (_, i) => `n${i}`);
    for (const page of nodes.slice(0, 120)) {
      links[page] = Array.from({ length: 1 + Math.floor(random() * 6) }, () => ({ to: nodes[Math.floor(random() * nodes.length)]!, weight: Math.round(random() * 4) / 4 }));
      graph.setLinks(page, links[page]!);
    }
    const seen = nodes.filter((n) => links[n] || Object.values(links).some((out) => out.some((l) => l.to === n)));
    const want = batch(links, seen, 0.85);
    for (const [node, x] of want) expect(graph.rank(node)).toBeCloseTo(x, 7);
    expect(graph.size).toBe(seen.length);
  });

  it('reports the nodes whose rank moved, once', () => {
    const graph = new IncrementalPageRank({ damping: 0.5 });
    graph.setLinks('A', [{ to: 'B', weight: 1 }]);
    expect(graph.drainChanged().sort()).toEqual(['A', 'B']);
    expect(graph.drainChanged()).toEqual([]);
    graph.setLinks('C', [{ to: 'B', weight: 0 }]); // a weight-0 link moves nothing but C itself
    expect(graph.drainChanged()).toEqual(['C']);
  });

  it('replaces a page\'s links when given again', () => {
    const graph = new IncrementalPageRank({ damping: 0.5, epsilon: 1e-12 });
    graph.setLinks('A', [{ to: 'B', weight: 1 }]);
    graph.setLinks('A', [{ to: 'C', weight: 1 }]);
    expect(graph.rank('B')).toBeCloseTo(0.5, 10);
    expect(graph.rank('C')).toBeCloseTo(0.75, 10);
  });

  it('refuses weights outside [0, 1] and a damping of 1', () => {
    expect(() => new IncrementalPageRank({ damping: 1 })).toThrow('damping must lie in [0, 1), got 1');
    expect(() => new IncrementalPageRank().setLinks('A', [{ to: 'B', weight: 2 }])).toThrow('a link weight must lie in [0, 1], got 2 for B');
  });
});
