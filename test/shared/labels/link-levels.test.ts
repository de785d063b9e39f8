import { describe, expect, it } from 'vitest';
import { distancesToTopic, linkLevel } from '../../../shared/labels/link-levels.ts';

/**
 * A small hand-made web: portal → hubA → entry → t1 (on topic) → t2 (on topic);
 * portal → hubB → leaf; hubB → hubA; calendar → calendar2 → calendar (a cycle, no topic);
 * entry → far (never fetched).
 */
const links = [
  ['portal', 'hubA'],
  ['portal', 'hubB'],
  ['portal', 'calendar'],
  ['hubA', 'entry'],
  ['entry', 't1'],
  ['entry', 'far'],
  ['t1', 't2'],
  ['t1', 'entry'],
  ['hubB', 'leaf'],
  ['hubB', 'hubA'],
  ['calendar', 'calendar2'],
  ['calendar2', 'calendar'],
].map(([pageUrl, url]) => ({ pageUrl: pageUrl!, url: url! }));
const onTopic = (url: string) => url.startsWith('t');
const fetched = new Set(links.map((l) => l.pageUrl).concat(['leaf']));

describe('distancesToTopic', () => {
  it('gives each page its hops to the nearest on-topic page, by the reversed edges', () => {
    const d = distancesToTopic(links, onTopic);
    expect(Object.fromEntries([...d].sort())).toEqual({ entry: 1, hubA: 2, hubB: 3, portal: 3, t1: 0, t2: 0 });
  });

  it('ignores self-links and knows nothing of pages with no path', () => {
    const d = distancesToTopic([...links, { pageUrl: 'leaf', url: 'leaf' }], onTopic);
    expect(d.has('leaf')).toBe(false);
    expect(d.has('calendar')).toBe(false);
  });
});

describe('linkLevel', () => {
  const d = distancesToTopic(links, onTopic);
  it('caps the distance at L − 1, puts fetched pages with no path last, leaves unknown targets out', () => {
    expect(linkLevel('t1', d, fetched, 4)).toBe(0);
    expect(linkLevel('entry', d, fetched, 4)).toBe(1);
    expect(linkLevel('hubA', d, fetched, 4)).toBe(2);
    expect(linkLevel('hubB', d, fetched, 4)).toBe(3);
    expect(linkLevel('hubB', d, fetched, 3)).toBe(2);
    expect(linkLevel('calendar', d, fetched, 4)).toBe(3);
    expect(linkLevel('leaf', d, fetched, 4)).toBe(3);
    expect(linkLevel('far', d, fetched, 4)).toBeNull();
  });
});
