import { describe, expect, it } from 'vitest';
import { exampleKey, fnv1a64 } from '../../../shared/model/example-key.ts';

describe('fnv1a64', () => {
  it('matches the published FNV-1a 64 test vectors', () => {
    expect(fnv1a64('')).toBe('cbf29ce484222325');
    expect(fnv1a64('a')).toBe('af63dc4c8601ec8c');
    expect(fnv1a64('foobar')).toBe('85944171f73967e8');
  });

  it('hashes UTF-8 bytes: Chinese, astral characters, and a lone surrogate as U+FFFD', () => {
    // Values from a BigInt reference over Buffer.from(text, 'utf8').
    expect(fnv1a64('股票 基金 🎉 x')).toBe('c5b3ddfaef243bd1');
    expect(fnv1a64('a\ud800b')).toBe(fnv1a64('a\ufffdb'));
  });

  it('agrees with a BigInt FNV-1a 64 over Buffer.from(text) on long and mixed texts', () => {
    const reference = (text: string) => {
      let h = 0xcbf29ce484222325n;
      for (const byte of Buffer.from(text, 'utf8')) h = ((h ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
      return h.toString(16).padStart(16, '0');
    };
    const texts = ['电子表格'.repeat(3000), 'x'.repeat(10_000), '🎉a股'.repeat(500), '\u00e9\u07ff\u0800\uffff', 'short'];
    for (const text of texts) expect(fnv1a64(text)).toBe(reference(text));
  });
});

describe('exampleKey', () => {
  const link = { url: 'https://a.example/1', pageUrl: 'https://a.example/', anchor: '股票', before: '今日', after: '' };

  it('is 16 hex digits, stable, and ignores label, source and topic', () => {
    const key = exampleKey(link);
    expect(key).toMatch(/^[0-9a-f]{16}$/);
    expect(exampleKey({ ...link, label: 0, source: 'user', topic: 'x' } as typeof link)).toBe(key);
  });

  it('changes with every field, and field boundaries matter', () => {
    const key = exampleKey(link);
    for (const field of ['url', 'pageUrl', 'anchor', 'before', 'after'] as const) {
      expect(exampleKey({ ...link, [field]: `${link[field]}!` })).not.toBe(key);
    }
    expect(exampleKey({ ...link, anchor: 'ab', before: 'c' })).not.toBe(exampleKey({ ...link, anchor: 'a', before: 'bc' }));
  });
});
