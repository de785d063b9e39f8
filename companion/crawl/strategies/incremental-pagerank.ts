/**
 * PageRank over a graph that grows while it is ranked, kept up to date by pushing residuals
 * (Gauss–Southwell; Berkhin 2005, "A survey on PageRank computing", §3 "bookmark-coloring";
 * Bahmani et al. 2010 use the same invariant for incremental PageRank). It serves seed 003's
 * IPageRank (李盛韬 et al., SkyReach, §3.6.4, formula 3) and its PageRank baseline (formula 2,
 * Brin & Page 1998), in the non-normalised form the seed writes:
 *
 *     IPR(A) = (1 − d) + d · Σ_i w(T_i → A) · IPR(T_i) / k_i
 *
 * T_i the pages linking to A, k_i the number of links on T_i, w the link's weight: its topical
 * relevance RW(url_Ti) for IPageRank, 1 for PageRank. d = 0.85 (the seed's value). The seed's
 * formula images are missing from its text; this is the form its variable list (A, T_i, url_Ti,
 * k_i, d) and its random-surfer reading ("interest in a link proportional to its relevance")
 * give. A page whose links are not known yet (the frontier) has none: its rank leaks, as in
 * Cho et al. 1998's crawl-time PageRank.
 *
 * In matrix form x = b + d·Mᵀx with b = (1 − d)·1 and M[T][A] = w/k_T. Instead of iterating it
 * from scratch after every page, the residual r = b + d·Mᵀx − x is kept beside x:
 *   - a new node u: r_u += (1 − d)   (its b entry; x_u starts at 0)
 *   - T's links become known: r_A += d·(w/k_T)·x_T for each link T → A   (Mᵀx grew)
 *   - push at v: x_v += r_v; r_u += d·(w/k_v)·r_v for each link v → u; r_v = 0
 * x + (I − d·Mᵀ)⁻¹ r is invariant under all three, so pushing every |r_v| down to ε converges to
 * the fixed point (Σ_u w/k_v ≤ 1 and d < 1 make each push shrink the total residual). A page's
 * cost is the pushes its new links set off, not a pass over the graph.
 */

/** The seed's damping factor ("衰减因子", 0.85, after Brin & Page). */
export const DEFAULT_DAMPING = 0.85;

/**
 * Residual below which a node is not pushed: ranks are exact to about this much (they start at
 * 1 − d = 0.15). Ranking the served graph of the seeds bench page by page, 4,000 pages, every
 * weight 1 (pagerank, its worst case: no weight-0 link stops a push): 1e-6 took 109 M pushes
 * (185 s on a loaded machine), 1e-5 17 M (17 s), 1e-4 2.9 M (3.5 s). Differences in the fourth
 * decimal of a rank do not change what a crawl fetches next in any way worth 50× the work.
 */
export const DEFAULT_EPSILON = 1e-4;

interface Node {
  /** x: the rank so far. */
  rank: number;
  /** r: what the node has yet to absorb and pass on. */
  residual: number;
  /** Its links with their share w/k, once its page is known; undefined before. */
  out?: { to: Node; share: number }[];
  readonly key: string;
  queued: boolean;
}

export interface PageRankOptions {
  /** d, in [0, 1). Default 0.85. */
  damping?: number;
  /** Push threshold. Default 1e-4. */
  epsilon?: number;
}

export class IncrementalPageRank {
  readonly damping: number;
  readonly epsilon: number;
  readonly #nodes = new Map<string, Node>();
  /** Nodes whose |residual| > ε, waiting for a push. */
  readonly #pending: Node[] = [];
  /** Nodes whose rank changed since the last `drainChanged`. */
  readonly #changed = new Set<string>();
  #pushes = 0;

  constructor({ damping = DEFAULT_DAMPING, epsilon = DEFAULT_EPSILON }: PageRankOptions = {}) {
    if (!(damping >= 0 && damping < 1)) throw new RangeError(`pagerank: damping must lie in [0, 1), got ${damping}`);
    if (!(epsilon > 0)) throw new RangeError(`pagerank: epsilon must be > 0, got ${epsilon}`);
    this.damping = damping;
    this.epsilon = epsilon;
  }

  /** Nodes in the graph. */
  get size(): number {
    return this.#nodes.size;
  }

  /** Pushes done so far: the work the incremental updates cost. */
  get pushes(): number {
    return this.#pushes;
  }

  /** The node's rank (0 for a node never seen). */
  rank(key: string): number {
    return this.#nodes.get(key)?.rank ?? 0;
  }

  /** Whether the node's links were given (`setLinks`). */
  hasLinks(key: string): boolean {
    return this.#nodes.get(key)?.out !== undefined;
  }

  /** Adds a node with no known links (a seed, a discovered URL); no-op for a known one. */
  addNode(key: string): void {
    this.#node(key);
    this.#settle();
  }

  /**
   * Gives page `from` its links, each with its weight w in [0, 1]; k is the number of links
   * given. A page's links are given once, when it is fetched; given again, they replace the old.
   * Ranks are brought up to date before it returns.
   */
  setLinks(from: string, links: readonly { to: string; weight: number }[]): void {
    const source = this.#node(from);
    const d = this.damping;
    // Mᵀx changes by the difference of the old and new links' shares of x_from.
    for (const { to, share } of source.out ?? []) this.#addResidual(to, -d * share * source.rank);
    const k = links.length;
    source.out = links.map(({ to, weight }) => {
      if (!(weight >= 0 && weight <= 1)) throw new RangeError(`pagerank: a link weight must lie in [0, 1], got ${weight} for ${to}`);
      return { to: this.#node(to), share: weight / k };
    });
    for (const { to, share } of source.out) this.#addResidual(to, d * share * source.rank);
    this.#settle();
  }

  /** The keys whose rank changed since the last call, and forgets them. */
  drainChanged(): string[] {
    const keys = [...this.#changed];
    this.#changed.clear();
    return keys;
  }

  #node(key: string): Node {
    let node = this.#nodes.get(key);
    if (!node) {
      node = { key, rank: 0, residual: 0, queued: false };
      this.#nodes.set(key, node);
      this.#addResidual(node, 1 - this.damping);
    }
    return node;
  }

  #addResidual(node: Node, amount: number): void {
    node.residual += amount;
    if (!node.queued && Math.abs(node.residual) > this.epsilon) {
      node.queued = true;
      this.#pending.push(node);
    }
  }

  /** Pushes until every residual is within ε. */
  #settle(): void {
    const d = this.damping;
    while (this.#pending.length > 0) {
      const v = this.#pending.pop()!;
      v.queued = false;
      const r = v.residual;
      if (Math.abs(r) <= this.epsilon) continue;
      this.#pushes++;
      v.residual = 0;
      v.rank += r;
      this.#changed.add(v.key);
      for (const { to, share } of v.out ?? []) if (share > 0) this.#addResidual(to, d * share * r);
    }
  }
}
