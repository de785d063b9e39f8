/**
 * Token ids (`token-ids.ts`): an id names one token text for good, in any table, before and after
 * a table starts again; interning hands back one string per text.
 */
import { describe, expect, it } from 'vitest';
import { TokenIds } from '../../../shared/tokens/token-ids.ts';

function interned(table: TokenIds, texts: string[]): { pieces: string[]; ids: number[] } {
  const pieces = [...texts];
  const ids = new Array<number>(pieces.length).fill(0);
  table.intern(pieces, ids);
  return { pieces, ids };
}

describe('TokenIds', () => {
  it('gives equal texts one id and one string, and different texts different ids', () => {
    const table = new TokenIds();
    const first = interned(table, ['股票', '基金', '股票']);
    const again = interned(table, [[...'股票'].join(''), '行情']);
    expect(first.ids[0]).toBe(first.ids[2]);
    expect(first.ids[0]).not.toBe(first.ids[1]);
    expect(again.ids[0]).toBe(first.ids[0]);
    expect(new Set([first.ids[0], first.ids[1], again.ids[1]]).size).toBe(3);
    expect(again.pieces).toEqual(['股票', '行情']);
    expect(Object.is(again.pieces[0], first.pieces[0])).toBe(true);
    expect(first.ids.every((id) => id >= 1)).toBe(true);
  });

  it('never gives one id to two texts: not in another table, not after starting again', () => {
    const texts = Array.from({ length: 50 }, (_, i) => `w${i}`);
    const textOf = new Map<number, string>();
    const record = ({ pieces, ids }: { pieces: string[]; ids: number[] }) => {
      pieces.forEach((text, i) => {
        const known = textOf.get(ids[i]!);
        if (known !== undefined) expect(known).toBe(text);
        textOf.set(ids[i]!, text);
      });
    };
    const small = new TokenIds(8);
    for (let round = 0; round < 3; round++) record(interned(small, texts));
    expect(small.size).toBeLessThanOrEqual(8);
    record(interned(new TokenIds(), texts));
    // Started again seven times over, and once in another table: every text had several ids.
    expect(textOf.size).toBeGreaterThan(texts.length * 3);
  });

  it('checks its bound', () => {
    expect(() => new TokenIds(0)).toThrow(RangeError);
  });
});
