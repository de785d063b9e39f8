import { describe, expect, it } from 'vitest';
import { DEFAULT_TRAP_CAPS, trapReason } from '../../../companion/crawl/traps.ts';

describe('trapReason', () => {
  it('passes ordinary URLs', () => {
    expect(trapReason('http://a.test/finance/2024/03/1.html?page=2')).toBeNull();
    expect(trapReason('http://a.test/a/x/a/y/a/')).toBeNull(); // three times is allowed
  });

  it('stops a segment repeated more than three times, long queries and long URLs', () => {
    expect(trapReason('http://a.test/a/x/a/y/a/z/a/')).toMatch(/"a" repeated more than 3/);
    expect(trapReason(`http://a.test/?q=${'x'.repeat(255)}`)).toMatch(/query longer than 256/);
    expect(trapReason(`http://a.test/?q=${'x'.repeat(254)}`)).toBeNull();
    expect(trapReason(`http://a.test/${'p'.repeat(2040)}`)).toMatch(/URL longer than 2048/);
    expect(trapReason(`http://a.test/${Array.from({ length: 33 }, (_, i) => `s${i}`).join('/')}`)).toMatch(/more than 32 path segments/);
  });

  it('honours custom caps', () => {
    expect(trapReason('http://a.test/a/a/', { ...DEFAULT_TRAP_CAPS, maxSegmentRepeats: 1 })).toMatch(/repeated/);
  });
});
