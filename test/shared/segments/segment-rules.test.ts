import { describe, expect, it } from 'vitest';
import { collapseWhiteSpace, isWhiteSpace } from '../../../shared/segments/segment-rules.ts';

/** What collapseWhiteSpace must stay equal to (its definition before it scanned by hand). */
const byRegex = (text: string) => text.replace(/\s+/g, ' ').trim();

describe('collapseWhiteSpace', () => {
  it('treats exactly the code units of \\s as white space', () => {
    const differ: number[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      if (isWhiteSpace(code) !== /\s/.test(String.fromCharCode(code))) differ.push(code);
    }
    expect(differ).toEqual([]);
  });

  it('gives what replace(/\\s+/g, " ").trim() gives, for each white space character at each place', () => {
    const spaces = [...Array(0x10000).keys()].filter((code) => /\s/.test(String.fromCharCode(code))).map((code) => String.fromCharCode(code));
    const cases = ['', 'a', '中文', 'a b', 'a  b', ' a', 'a ', '  '];
    for (const space of spaces) {
      cases.push(space, `${space}a`, `a${space}`, `a${space}b`, `a ${space}b`, `a${space} b`, `${space}${space}`, ` a${space}${space}b c `);
    }
    expect(cases.filter((text) => collapseWhiteSpace(text) !== byRegex(text))).toEqual([]);
    expect(collapseWhiteSpace('\n\t AT&T\u00a0\u00a0and\u3000中文 \n')).toBe('AT&T and 中文');
  });
});
