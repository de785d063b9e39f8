import { describe, expect, it } from 'vitest';
import { parseLabeledJsonl } from '../../../companion/cli/labeled-jsonl.ts';
import { MAX_JSON_LINE_CHARS } from '../../../companion/platform/input-files.ts';

describe('parseLabeledJsonl', () => {
  it('defaults optional fields and names each bad line by file and number', () => {
    const text = ['{"url":"http://a/","anchor":"股票","label":1}', '[1]', '{"url":"http://a/","anchor":"x","label":1,"before":3}', '{"url'].join('\n');
    const { examples, problems } = parseLabeledJsonl(text, 'f.jsonl');
    expect(examples).toEqual([{ url: 'http://a/', pageUrl: '', anchor: '股票', before: '', after: '', label: 1, source: 'pattern', topic: '' }]);
    expect(problems).toEqual(['f.jsonl:2: not a JSON object', 'f.jsonl:3: field "before" must be a string', 'f.jsonl:4: not JSON']);
  });

  // Issue 13, item 13: a BOM cost line 1; item 11: a 50 MB line went into the model.
  it('reads line 1 of a file that starts with a byte-order mark', () => {
    const { examples, problems } = parseLabeledJsonl('\uFEFF{"url":"http://a/","anchor":"股票","label":1}\n', 'bom.jsonl');
    expect(problems).toEqual([]);
    expect(examples).toHaveLength(1);
  });

  it('skips a line longer than MAX_JSON_LINE_CHARS, naming it and the bound, and keeps the others', () => {
    const long = JSON.stringify({ url: 'http://a/', anchor: 'x'.repeat(MAX_JSON_LINE_CHARS), label: 1 });
    const { examples, problems } = parseLabeledJsonl(`${long}\n{"url":"http://b/","anchor":"y","label":0}`, 'big.jsonl');
    expect(problems).toEqual([`big.jsonl:1: a line of ${long.length} characters, at most ${MAX_JSON_LINE_CHARS}`]);
    expect(examples.map((example) => example.url)).toEqual(['http://b/']);
  });
});
