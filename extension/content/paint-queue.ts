/**
 * Verdicts waiting for animation frames, painted at most `perFrame` per frame, first come first
 * painted (the session sends the links in view first, so they are painted first).
 *
 * Why a cap: the browser's work after our writes (style, layout of the marked links' ink
 * overflow, pre-paint) grows with the number of links changed in the frame. One 500-link reply
 * per frame made tasks of 25–40 ms on the bench's 5,000-link page, and two replies landing in
 * one frame made one over 50 ms (bench/extension-bench.ts, traced runs). The cap bounds a frame
 * however the replies arrive; it is not lower, because every frame also costs a fixed share, and
 * on a 5,000-link page frames are what the last verdicts wait for.
 */
import type { PageVerdict } from '../messages/page-links.ts';
import type { LinkRegistry } from './link-registry.ts';
import { paintVerdicts, type RequestFrame } from './paint.ts';

/** Default verdicts painted in one frame at most. */
export const DEFAULT_PAINT_PER_FRAME = 500;

interface Pending {
  verdicts: readonly PageVerdict[];
  /** Index of the next verdict to paint. */
  next: number;
  marked: number;
  /** False once a refresh or clear overtook the run: the rest is dropped. */
  current: () => boolean;
  resolve: (marked: number) => void;
}

export class PaintQueue {
  readonly #registry: LinkRegistry;
  readonly #requestFrame: RequestFrame;
  readonly #perFrame: number;
  readonly #pending: Pending[] = [];
  #scheduled = false;

  constructor(registry: LinkRegistry, requestFrame: RequestFrame, perFrame = DEFAULT_PAINT_PER_FRAME) {
    this.#registry = registry;
    this.#requestFrame = requestFrame;
    this.#perFrame = Math.max(1, perFrame);
  }

  /** Verdicts still waiting for a frame. */
  get waiting(): number {
    let n = 0;
    for (const entry of this.#pending) n += entry.verdicts.length - entry.next;
    return n;
  }

  /**
   * Queues `verdicts`; resolves with how many of them were marked once the last is painted, or
   * when `current` turns false before then (the rest is not painted).
   */
  paint(verdicts: readonly PageVerdict[], current: () => boolean = () => true): Promise<number> {
    return new Promise((resolve) => {
      this.#pending.push({ verdicts, next: 0, marked: 0, current, resolve });
      this.#schedule();
    });
  }

  /**
   * Paints `verdicts` now, in the caller's task, when nothing waits before them (else as `paint`
   * does). For the page's first verdicts while it is still being parsed (page-session.ts): the
   * browser has not laid the page out yet, so the marks cost no layout of their own, they are
   * there in the page's first frame, and an animation-frame callback of ours would run in that
   * frame, beside the page's own first layout of the whole page.
   */
  paintNow(verdicts: readonly PageVerdict[], current: () => boolean = () => true): Promise<number> {
    if (this.#pending.length > 0) return this.paint(verdicts, current);
    return Promise.resolve(current() ? paintVerdicts(this.#registry, verdicts) : 0);
  }

  #schedule(): void {
    if (this.#scheduled || this.#pending.length === 0) return;
    this.#scheduled = true;
    this.#requestFrame(() => {
      this.#scheduled = false;
      this.#frame();
      this.#schedule();
    });
  }

  /** One frame's share: up to `perFrame` verdicts from the oldest entries on. */
  #frame(): void {
    let budget = this.#perFrame;
    while (this.#pending.length > 0) {
      const entry = this.#pending[0]!;
      if (!entry.current()) {
        this.#pending.shift();
        entry.resolve(entry.marked);
        continue;
      }
      if (budget === 0) return;
      const end = Math.min(entry.verdicts.length, entry.next + budget);
      entry.marked += paintVerdicts(this.#registry, entry.next === 0 && end === entry.verdicts.length ? entry.verdicts : entry.verdicts.slice(entry.next, end));
      budget -= end - entry.next;
      entry.next = end;
      if (entry.next < entry.verdicts.length) return;
      this.#pending.shift();
      entry.resolve(entry.marked);
    }
  }
}
