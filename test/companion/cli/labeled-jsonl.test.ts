import { describe, expect, it } from 'vitest';
import { parseLabeledJsonl } from '../../../companion/cli/labeled-jsonl.ts';

describe('parseLabeledJsonl', () => {
  it('defaults optional fields and names each bad line by file and number', () => {
    const text = ['{"url":"http://a/","anchor":"股票","label":1}', '[1]', '{"url":"http://a/","anchor":"x","label":1,"before":3}', '{"url'].join('\n');
    const { examples, problems } = parseLabeledJsonl(text, 'f.jsonl');
    expect(examples).toEqual([{ url: 'http://a/', pageUrl: '', anchor: '股票', before: '', after: '', label: 1, source: 'pattern', topic: '' }]);
    expect(problems).toEqual(['f.jsonl:2: not a JSON object', 'f.jsonl:3: field "before" must be a string', 'f.jsonl:4: not JSON']);
  });
});
