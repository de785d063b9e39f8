/**
 * `--lexicon FILE` (train, eval --split): the domain lexicon, one term per line (seed 000's
 * group-2 lexicon flags). A file that cannot be read or holds no term is one `CliFailure` line.
 */
import { parseLexicon } from '../../shared/features/lexicon.ts';
import { readTextFile } from '../platform/input-files.ts';
import { CliFailure } from './errors.ts';

export function readLexiconFile(path: string): string[] {
  const lexicon = parseLexicon(readTextFile(path, `--lexicon ${path}`));
  if (lexicon.length === 0) throw new CliFailure(`--lexicon ${path} holds no terms`);
  return lexicon;
}
