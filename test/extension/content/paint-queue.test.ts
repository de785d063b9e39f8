// @vitest-environment happy-dom
/**
 * The paint queue: verdicts painted at most `perFrame` per animation frame, in the order they
 * came, each exactly once, and nothing of a run a refresh overtook.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { LinkVerdict } from '../../../extension/messages/page-links.ts';
import { LinkRegistry } from '../../../extension/content/link-registry.ts';
import { LEVEL_ATTRIBUTE } from '../../../extension/content/paint.ts';
import { PaintQueue } from '../../../extension/content/paint-queue.ts';

const verdict = (ref: number): LinkVerdict => ({ ref, p: 0.9, level: 3, top: [] });

let registry: LinkRegistry;
let links: HTMLAnchorElement[];
let frames: (() => void)[];
const requestFrame = (callback: () => void) => frames.push(callback);
const painted = () => links.filter((a) => a.hasAttribute(LEVEL_ATTRIBUTE)).map((a) => registry.refOf(a));
/** Runs the one frame asked for (a queue asks for at most one at a time). */
function frame(): void {
  expect(frames).toHaveLength(1);
  frames.shift()!();
}

beforeEach(() => {
  document.body.replaceChildren();
  registry = new LinkRegistry();
  frames = [];
  links = Array.from({ length: 12 }, (_, i) => {
    const a = document.createElement('a');
    a.setAttribute('href', `/l${i}`);
    document.body.append(a);
    registry.register(a);
    return a;
  });
});

describe('PaintQueue', () => {
  it('paints a batch larger than a frame over several frames, in order, then resolves', async () => {
    const queue = new PaintQueue(registry, requestFrame, 4);
    const done = vi.fn();
    void queue.paint([0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map(verdict)).then(done);
    expect(painted()).toEqual([]);
    frame();
    expect(painted()).toEqual([0, 1, 2, 3]);
    frame();
    expect(painted()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(queue.waiting).toBe(2);
    frame();
    await Promise.resolve();
    expect(painted()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(done).toHaveBeenCalledWith(10);
    expect(frames).toHaveLength(0);
  });

  it('fills a frame from several batches, and paints a batch that came mid-way after the earlier ones', async () => {
    const queue = new PaintQueue(registry, requestFrame, 5);
    const setVerdict = vi.spyOn(registry, 'setVerdict');
    const first = queue.paint([0, 1, 2, 3, 4, 5, 6].map(verdict));
    frame();
    // A batch that arrives while the first is half painted waits behind it, not in front.
    const second = queue.paint([10, 11].map(verdict));
    const third = queue.paint([7, 8, 9].map(verdict));
    frame();
    // The second frame: the first batch's last two, the second batch, one of the third.
    expect(painted()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 10, 11]);
    frame();
    expect(await Promise.all([first, second, third])).toEqual([7, 2, 3]);
    expect(painted()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    // Every verdict was applied exactly once.
    expect(setVerdict.mock.calls.map(([v]) => v.ref).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(frames).toHaveLength(0);
  });

  it('paints now when nothing waits, and behind what waits otherwise', async () => {
    const queue = new PaintQueue(registry, requestFrame, 4);
    await expect(queue.paintNow([0, 1].map(verdict))).resolves.toBe(2);
    expect(painted()).toEqual([0, 1]);
    expect(frames).toHaveLength(0);
    const waiting = queue.paint([2, 3, 4, 5, 6].map(verdict));
    const after = queue.paintNow([7].map(verdict));
    expect(painted()).toEqual([0, 1]);
    frame();
    expect(painted()).toEqual([0, 1, 2, 3, 4, 5]);
    frame();
    expect(painted()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    await expect(waiting).resolves.toBe(5);
    await expect(after).resolves.toBe(1);
    // A run overtaken already paints nothing.
    await expect(queue.paintNow([8].map(verdict), () => false)).resolves.toBe(0);
    expect(painted()).not.toContain(8);
  });

  it('paints nothing of a run overtaken before its first frame (refresh, clear), and resolves with 0', async () => {
    const queue = new PaintQueue(registry, requestFrame, 4);
    let current = true;
    const overtaken = queue.paint([0, 1].map(verdict), () => current);
    current = false;
    frame();
    expect(await overtaken).toBe(0);
    expect(painted()).toEqual([]);
    expect(registry.totals()).toEqual({ onTopic: 0, total: 0 });
    expect(frames).toHaveLength(0);
  });

  it('drops what a refresh overtook, and goes on with the newer run', async () => {
    const queue = new PaintQueue(registry, requestFrame, 3);
    let current = true;
    const old = queue.paint([0, 1, 2, 3, 4, 5].map(verdict), () => current);
    frame();
    current = false;
    const fresh = queue.paint([6, 7].map(verdict));
    frame();
    expect(await old).toBe(3);
    expect(await fresh).toBe(2);
    expect(painted()).toEqual([0, 1, 2, 6, 7]);
    expect(frames).toHaveLength(0);
  });
});
