import { describe, expect, it } from 'vitest';
import { locateJsonError } from '../../../shared/model/json-error.ts';

describe('locateJsonError', () => {
  it('agrees with JSON.parse on what is valid', () => {
    const texts = [
      '{}', '[]', '0', '-0.5e+3', '"a\\u00e9\\n"', ' {"a": [1, {"b": null}], "c": true} ', '[1,]', '{"a":1,}', '01', '1.',
      '"\t"', '"\\x"', 'tru', '{"a" 1}', '{a: 1}', '[1 2]', '{"a":1}}', '', '"abc', '-', 'nul', '[[[]]]', '"\\ud800"',
    ];
    for (const text of texts) {
      let valid = true;
      try {
        JSON.parse(text);
      } catch {
        valid = false;
      }
      expect([text, locateJsonError(text) === undefined]).toEqual([text, valid]);
    }
  });

  it('names the position, line and column of the first error', () => {
    expect(locateJsonError('{\n  "a": 1,\n  "b" 2\n}')).toEqual({ position: 18, line: 3, column: 7, problem: "expected ':' after a property name" });
    expect(locateJsonError('[1, 2')).toEqual({ position: 5, line: 1, column: 6, problem: 'the text ends early (truncated?)' });
    expect(locateJsonError('{"a": 1} x')).toMatchObject({ position: 9, problem: 'unexpected text after the end' });
  });

  it('reports a nesting too deep for the stack instead of crashing', () => {
    const deep = '['.repeat(200_000);
    expect(locateJsonError(deep)).toMatchObject({ problem: expect.stringMatching(/nested too deeply|ends early/) });
  });
});
