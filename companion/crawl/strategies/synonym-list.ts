/**
 * The user's synonym list for seed 003's RW relevance (§3.6.2): "synonyms are 100 % similar,
 * near-synonyms 50–100 %, distant words 0–50 %". One group of words a line; every word of a line
 * is that similar to every other:
 *
 *     # comment
 *     电子表格 工作表 spreadsheet         ← synonyms: similarity 1
 *     0.7: 公式 函数 表达式               ← near-synonyms: similarity 0.7
 *
 * Words are separated by white space or commas (`,` `，` `、`). The file is bounded so that a
 * wrong file (a dictionary dump, a binary) fails at once, in one line naming the file and line.
 */

/** The largest synonym file read, in bytes. */
export const MAX_SYNONYM_BYTES = 1 << 20;
/** The most groups (non-blank, non-comment lines). */
export const MAX_SYNONYM_GROUPS = 20_000;
/** The most words in one group. */
export const MAX_GROUP_WORDS = 64;
/** The longest word, in characters. */
export const MAX_WORD_CHARS = 64;

export interface SynonymGroup {
  /** How similar the words are to each other, in (0, 1]. */
  similarity: number;
  words: string[];
  /** 1-based line in the file. */
  line: number;
}

/** A synonym file that cannot be used; the message is one line: `NAME:LINE: problem`. */
export class SynonymListError extends Error {
  override readonly name = 'SynonymListError';
}

const WEIGHT = /^\s*([0-9]*\.?[0-9]+)\s*:(.*)$/;
const SEPARATORS = /[\s,，、]+/u;

/** Parses a synonym list; `name` is how errors name the file (`--synonyms syn.txt`). */
export function parseSynonymList(text: string, name: string): SynonymGroup[] {
  if (Buffer.byteLength(text, 'utf8') > MAX_SYNONYM_BYTES) {
    throw new SynonymListError(`${name}: larger than ${MAX_SYNONYM_BYTES} bytes; a synonym list is one group of words a line`);
  }
  const groups: SynonymGroup[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((raw, i) => {
    const line = i + 1;
    const body = raw.trim();
    if (body === '' || body.startsWith('#')) return;
    const fail = (problem: string): never => {
      throw new SynonymListError(`${name}:${line}: ${problem}`);
    };
    if (groups.length === MAX_SYNONYM_GROUPS) fail(`more than ${MAX_SYNONYM_GROUPS} groups`);
    let similarity = 1;
    let rest = body;
    const weighted = WEIGHT.exec(body);
    if (weighted) {
      similarity = Number(weighted[1]);
      rest = weighted[2]!;
      if (!(similarity > 0 && similarity <= 1)) fail(`similarity ${weighted[1]} is not in (0, 1]`);
    }
    const words = rest.split(SEPARATORS).filter((w) => w !== '');
    if (words.length < 2) fail('a group needs at least two words');
    if (words.length > MAX_GROUP_WORDS) fail(`more than ${MAX_GROUP_WORDS} words in one group`);
    const long = words.find((w) => [...w].length > MAX_WORD_CHARS);
    if (long !== undefined) fail(`a word longer than ${MAX_WORD_CHARS} characters ("${[...long].slice(0, 20).join('')}…")`);
    groups.push({ similarity, words, line });
  });
  if (groups.length === 0) throw new SynonymListError(`${name}: holds no synonym group`);
  return groups;
}
