/**
 * A model file's text without its labeled examples, for readers that use only the classifiers
 * (a crawl: it scores with the model and learns from its own pages, never from the file's
 * examples).
 *
 * Why: in a file `train` writes, the examples are most of the text (12,000 links: 4 of the
 * 7.9 MB of the frontier bench's model), and decoding them (the text, JSON.parse, then every row
 * revived and its key recomputed, `model-file-check.ts`) made most of a crawl's start-up
 * garbage: the load's peak resident memory was 12–25 MB higher with them than with the same file
 * emptied of them by hand (issue 14).
 *
 * How: the examples table's rows are found as the exact text Dexie's `exportDB` and
 * `encodeModelFile` write, `{"tableName":"examples","inbound":true,"rows":[` … `]}`, and
 * skipped by a scan that tracks brackets outside strings. The marker holds unescaped quotes, so
 * it cannot occur inside a JSON string. The scan counts the rows at the top level, so the
 * table's row count is still checked. The text can come in pieces (`ExampleSkimmer`), as a file
 * is read, so the examples never become one string. A text written otherwise (white space,
 * other key order) is not recognised and passes whole: it decodes the same, only with its
 * examples. A text whose rows never close (a cut file) cannot be skimmed: the caller decodes it
 * whole, whose check then names what is wrong.
 */

/** The examples table's rows as `exportDB` writes them: its entry in `data.data`, up to its rows' `[`. */
const EXAMPLES_ROWS = '{"tableName":"examples","inbound":true,"rows":[';

export interface SkimmedModelFile {
  /** The text with the examples table's rows emptied (`"rows":[]`), or the whole text when it has no such table. */
  text: string;
  /** How many rows were left out (elements of the rows array at its top level); undefined when the text has no examples table as `exportDB` writes it, and so is whole. */
  examples: number | undefined;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_SQUARE = 0x5b;
const CLOSE_SQUARE = 0x5d;
const OPEN_CURLY = 0x7b;
const CLOSE_CURLY = 0x7d;
const COMMA = 0x2c;

/** Takes a model file's text piece by piece and keeps all of it but the examples table's rows. */
export class ExampleSkimmer {
  /** Where the scan is: before the examples' rows, inside them, or past them. */
  #phase: 'before' | 'rows' | 'after' = 'before';
  /** What is kept, in order. */
  #kept: string[] = [];
  /** The end of the text before this piece, so a marker split between two pieces is found. */
  #tail = '';
  // Inside the rows: the scan's state, carried from one piece to the next.
  #depth = 1;
  #inString = false;
  #escaped = false;
  #rows = 0;
  #empty = true;
  /** The marker was met twice, or something else makes the text unskimmable. */
  #broken = false;

  push(piece: string): void {
    if (this.#broken) return;
    let from = 0;
    if (this.#phase !== 'rows') {
      const at = this.#find(piece);
      if (at === undefined) {
        this.#kept.push(piece);
        return;
      }
      if (this.#phase === 'after') {
        this.#broken = true; // two examples tables: let the whole text's check say so
        return;
      }
      from = at;
      this.#kept.push(piece.slice(0, from));
      this.#phase = 'rows';
    }
    const end = this.#scan(piece, from);
    if (end === undefined) return;
    this.#phase = 'after';
    const rest = piece.slice(end);
    this.#tail = '';
    this.#kept.push(rest);
    if (this.#find(rest) !== undefined) this.#broken = true;
  }

  /** The text without the examples' rows; undefined when it could not be skimmed (the rows never close, or appear twice). */
  end(): SkimmedModelFile | undefined {
    if (this.#broken || this.#phase === 'rows') return undefined;
    const text = this.#kept.join('');
    this.#kept = [];
    return { text, examples: this.#phase === 'after' ? (this.#empty ? 0 : this.#rows + 1) : undefined };
  }

  /** Where the marker ends in `piece` (the first index after its `[`), if it is there or begins in the tail. */
  #find(piece: string): number | undefined {
    const joined = this.#tail + piece;
    const at = joined.indexOf(EXAMPLES_ROWS);
    this.#tail = joined.slice(-(EXAMPLES_ROWS.length - 1));
    return at < 0 ? undefined : at + EXAMPLES_ROWS.length - (joined.length - piece.length);
  }

  /** Scans the rows from `from`; the index of their closing `]` in `piece`, or undefined when they go on. */
  #scan(piece: string, from: number): number | undefined {
    for (let i = from; i < piece.length; i++) {
      const c = piece.charCodeAt(i);
      if (this.#inString) {
        if (this.#escaped) this.#escaped = false;
        else if (c === BACKSLASH) this.#escaped = true;
        else if (c === QUOTE) this.#inString = false;
        continue;
      }
      if (c === QUOTE) {
        this.#inString = true;
        this.#empty = false;
      } else if (c === OPEN_SQUARE || c === OPEN_CURLY) {
        this.#depth++;
        this.#empty = false;
      } else if (c === CLOSE_SQUARE || c === CLOSE_CURLY) {
        if (--this.#depth === 0) {
          if (c !== CLOSE_SQUARE) this.#broken = true;
          return i;
        }
      } else if (c === COMMA && this.#depth === 1) {
        this.#rows++;
      } else if (c > 0x20) {
        this.#empty = false;
      }
    }
    return undefined;
  }
}

/** `text` without the examples table's rows (`ExampleSkimmer`), or undefined when it cannot be skimmed. */
export function skimExamples(text: string): SkimmedModelFile | undefined {
  const skimmer = new ExampleSkimmer();
  skimmer.push(text);
  return skimmer.end();
}
