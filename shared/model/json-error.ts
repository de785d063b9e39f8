/**
 * Where a text stops being JSON. `JSON.parse` says so differently in every engine, and V8's
 * "Unexpected token" messages carry no position but quote the whole text (megabytes, for a model
 * file), so a failed parse is scanned again by this small RFC 8259 checker to name the spot.
 * It runs only after `JSON.parse` has failed; it builds no values.
 */

export interface JsonSyntaxProblem {
  /** Offset in UTF-16 code units (what `JSON.parse` and editors' "position" count). */
  position: number;
  line: number;
  column: number;
  problem: string;
}

/** The first syntax error in `text`, or undefined when it is valid JSON. */
export function locateJsonError(text: string): JsonSyntaxProblem | undefined {
  let i = 0;
  const fail = (problem: string): never => {
    throw new JsonStop(i, i >= text.length ? 'the text ends early (truncated?)' : problem);
  };
  const skipSpace = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const string = () => {
    i++; // the opening quote
    for (;;) {
      if (i >= text.length) fail('unterminated string');
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return;
      }
      if (c === 0x5c) {
        const escape = text[i + 1];
        if (escape !== undefined && '"\\/bfnrt'.includes(escape)) i += 2;
        else if (escape === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else fail('bad escape in string');
      } else if (c < 0x20) fail('control character in string');
      else i++;
    }
  };
  const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const value = (): void => {
    skipSpace();
    const c = text[i];
    if (c === '{') {
      i++;
      skipSpace();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        skipSpace();
        if (text[i] !== '"') fail('expected a property name in double quotes');
        string();
        skipSpace();
        if (text[i] !== ':') fail("expected ':' after a property name");
        i++;
        value();
        skipSpace();
        if (text[i] === ',') i++;
        else if (text[i] === '}') {
          i++;
          return;
        } else fail("expected ',' or '}'");
      }
    } else if (c === '[') {
      i++;
      skipSpace();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        skipSpace();
        if (text[i] === ',') i++;
        else if (text[i] === ']') {
          i++;
          return;
        } else fail("expected ',' or ']'");
      }
    } else if (c === '"') string();
    else if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) {
      NUMBER.lastIndex = i;
      if (!NUMBER.test(text)) fail('bad number');
      i = NUMBER.lastIndex;
    } else if (text.startsWith('true', i)) i += 4;
    else if (text.startsWith('false', i)) i += 5;
    else if (text.startsWith('null', i)) i += 4;
    else fail('unexpected character');
  };
  try {
    value();
    skipSpace();
    if (i < text.length) fail('unexpected text after the end');
    return undefined;
  } catch (error) {
    if (error instanceof RangeError) return at(text, i, 'nested too deeply');
    if (!(error instanceof JsonStop)) throw error;
    return at(text, error.position, error.problem);
  }
}

class JsonStop {
  constructor(
    readonly position: number,
    readonly problem: string,
  ) {}
}

function at(text: string, position: number, problem: string): JsonSyntaxProblem {
  let line = 1;
  let lineStart = 0;
  for (let n = text.indexOf('\n'); n !== -1 && n < position; n = text.indexOf('\n', n + 1)) {
    line++;
    lineStart = n + 1;
  }
  return { position, line, column: position - lineStart + 1, problem };
}

/**
 * A bad number as a message shows it. JSON has no Infinity or NaN: `JSON.stringify` writes them
 * as null, so a model saved with an infinite alpha reads back as null, and "got null" alone
 * would leave the user looking for a missing field.
 */
export function shownNumber(value: unknown): string {
  if (value === null) return 'null (JSON has no Infinity or NaN; a writer that had one wrote null)';
  if (typeof value === 'number') return String(value);
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
