import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InputFileError, nothingUsableNote, parseJsonLines, readTextFile, warnSkippedLines } from '../../../companion/platform/input-files.ts';
import { tempDir } from '../crawl/crawl-test-helpers.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

describe('readTextFile', () => {
  it('reads UTF-8, and names the file in one line when it cannot', () => {
    const { dir, cleanup } = tempDir('linkscent-input-');
    cleanups.push(cleanup);
    writeFileSync(join(dir, 'a.txt'), '股票\n');
    mkdirSync(join(dir, 'sub'));
    expect(readTextFile(join(dir, 'a.txt'))).toBe('股票\n');
    expect(() => readTextFile(join(dir, 'none.txt'))).toThrow(/^cannot read .*none\.txt: no such file$/);
    expect(() => readTextFile(join(dir, 'sub'), '--lexicon sub')).toThrow(new InputFileError('cannot read --lexicon sub: is a directory'));
  });
});

describe('parseJsonLines', () => {
  it('converts good lines and reports each bad one with its line number', () => {
    const text = '{"n": 1}\n\nnot json\n{"n": "x"}\n{"n": 2}\n{"n":';
    const problemOf = (value: unknown) => (typeof (value as { n?: unknown }).n === 'number' ? null : 'field "n" must be a number');
    const { items, problems } = parseJsonLines(text, 'f.jsonl', problemOf, (record) => record.n as number);
    expect(items).toEqual([1, 2]);
    expect(problems).toEqual(['f.jsonl:3: not JSON', 'f.jsonl:4: field "n" must be a number', 'f.jsonl:6: not JSON']);
  });
});

describe('reporting bad lines', () => {
  it('shows the first five, then counts the rest', () => {
    const lines: string[] = [];
    warnSkippedLines(Array.from({ length: 7 }, (_, i) => `f:${i + 1}: not JSON`), (line) => lines.push(line));
    expect(lines).toHaveLength(6);
    expect(lines[0]).toBe('warning: f:1: not JSON (line skipped)');
    expect(lines[5]).toBe('warning: 2 more bad lines skipped');
  });

  it('says why nothing was usable', () => {
    expect(nothingUsableNote(['f:2: not JSON', 'f:3: not JSON'], 'the file is empty')).toBe(' (2 bad lines; first f:2: not JSON)');
    expect(nothingUsableNote([], 'the file is empty')).toBe(' (the file is empty)');
  });
});
