import { describe, expect, it } from 'vitest';
import { SegmentBuilder } from '../../../shared/segments/index.ts';
import { shape } from './segment-shape.ts';

const pageUrl = 'http://example.com/dir/page.html';

function attributes(values: Record<string, string> = {}) {
  return (name: string) => values[name];
}

describe('SegmentBuilder driven by events directly', () => {
  it('builds the stream from open / text / close events', () => {
    const builder = new SegmentBuilder(pageUrl);
    builder.openElement('p', attributes());
    builder.text('Read ');
    builder.openElement('a', attributes({ href: 'x.html', rel: 'nofollow' }));
    builder.text(' this ');
    builder.closeElement('a');
    builder.text(' now');
    builder.closeElement('p');
    builder.openElement('p', attributes());
    builder.text('next');
    builder.closeElement('p');
    expect(builder.finish().segments).toEqual([
      { kind: 'text', text: 'Read' },
      { kind: 'link', url: 'http://example.com/dir/x.html', anchor: 'this', nofollow: true },
      { kind: 'text', text: 'now' },
      { kind: 'break' },
      { kind: 'text', text: 'next' },
    ]);
  });

  it('ignores a close with no matching open, and closes inner elements with an outer close', () => {
    const builder = new SegmentBuilder(pageUrl);
    builder.openElement('div', attributes());
    builder.openElement('span', attributes({ hidden: '' }));
    builder.text('hidden');
    builder.closeElement('li'); // stray: nothing open by that name
    builder.text('still hidden');
    builder.closeElement('div'); // closes the hidden span too
    builder.text('visible');
    expect(shape(builder.finish().segments)).toEqual(['visible']);
  });

  it('ends a link still open at finish()', () => {
    const builder = new SegmentBuilder(pageUrl);
    builder.openElement('a', attributes({ href: '/open' }));
    builder.text('unclosed');
    expect(shape(builder.finish().segments)).toEqual(['[unclosed](http://example.com/open)']);
  });

  it('reports when it is skipping, for walkers that want to skip the children', () => {
    const builder = new SegmentBuilder(pageUrl);
    builder.openElement('svg', attributes());
    expect(builder.skipping).toBe(true);
    builder.closeElement('svg');
    expect(builder.skipping).toBe(false);
  });

  it('lets an explicit baseUrl win over <base> elements', () => {
    const builder = new SegmentBuilder(pageUrl, { baseUrl: 'https://given.example/' });
    builder.openElement('base', attributes({ href: 'https://ignored.example/' }));
    builder.closeElement('base');
    builder.openElement('a', attributes({ href: 'x' }));
    builder.closeElement('a');
    const result = builder.finish();
    expect(result.baseUrl).toBe('https://given.example/');
    expect(shape(result.segments)).toEqual(['[](https://given.example/x)']);
  });

  it('keeps pageUrl as the base when the first <base href> does not parse', () => {
    const builder = new SegmentBuilder('http://example.com/a/');
    builder.openElement('base', attributes({ href: 'http://[broken' }));
    builder.closeElement('base');
    builder.openElement('base', attributes({ href: 'http://second.example/' }));
    builder.closeElement('base');
    expect(builder.finish().baseUrl).toBe('http://example.com/a/');
  });

  it('refuses events after finish()', () => {
    const builder = new SegmentBuilder(pageUrl);
    builder.finish();
    expect(() => builder.text('late')).toThrow(/finish\(\) was already called/);
    expect(() => builder.finish()).toThrow(/finish\(\) was already called/);
  });

  it('keeps one ref per link segment, in order, beside the segments and not in them', () => {
    const builder = new SegmentBuilder<string>(pageUrl);
    builder.openElement('p', attributes(), 'p1');
    builder.openElement('a', attributes({ href: '/1' }), 'a1');
    builder.text('one ');
    builder.openElement('a', attributes({ href: '/2' }), 'a2'); // nested: ends the first link
    builder.text('two');
    builder.closeElement('a');
    builder.closeElement('a');
    builder.openElement('a', attributes({ href: 'javascript:void(0)' }), 'not a link');
    builder.closeElement('a');
    builder.openElement('span', attributes({ hidden: '' }), 'hidden');
    builder.openElement('a', attributes({ href: '/hidden' }), 'a-hidden');
    builder.closeElement('a');
    builder.closeElement('span');
    builder.openElement('map', attributes());
    builder.openElement('area', attributes({ href: '/m', alt: 'Map' }), 'area');
    builder.closeElement('area');
    builder.closeElement('map');
    builder.openElement('a', attributes({ href: '/no-ref' }));
    builder.closeElement('a');
    builder.closeElement('p');
    const page = builder.finish();
    expect(page.segments.filter((segment) => segment.kind === 'link').map((segment) => segment.url)).toEqual([
      'http://example.com/1',
      'http://example.com/2',
      'http://example.com/m',
      'http://example.com/no-ref',
    ]);
    expect(builder.linkRefs).toEqual(['a1', 'a2', 'area', undefined]);
    expect(JSON.stringify(page)).not.toMatch(/a1|area"/);
  });
});
