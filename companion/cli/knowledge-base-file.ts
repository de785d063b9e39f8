/**
 * `--knowledge-base FILE` (crawl --strategy best-first-extracted, train --pages --method
 * extracted): the knowledge base of seed 004's feature expansion, `term: related, related` a
 * line (`shared/features/knowledge-base.ts`). A file too large, unreadable or with a bad line is
 * one `CliFailure` line naming the file (and the line).
 */
import { statSync } from 'node:fs';
import { KNOWLEDGE_BASE_LIMITS, KnowledgeBaseError, parseKnowledgeBase, type KnowledgeEntry } from '../../shared/features/knowledge-base.ts';
import { readTextFile } from '../platform/input-files.ts';
import { CliFailure } from './errors.ts';

/** UTF-8 bytes read at most: a file of at most this many bytes has at most as many characters as the parser takes. */
const MAX_BYTES = KNOWLEDGE_BASE_LIMITS.chars;

export function readKnowledgeBaseFile(path: string): KnowledgeEntry[] {
  let size: number | undefined;
  try {
    size = statSync(path).size;
  } catch {
    // readTextFile says why in its own words.
  }
  if (size !== undefined && size > MAX_BYTES) throw new CliFailure(`--knowledge-base ${path}: ${size} bytes, at most ${MAX_BYTES}`);
  const text = readTextFile(path, `--knowledge-base ${path}`);
  try {
    return parseKnowledgeBase(text, path);
  } catch (error) {
    if (error instanceof KnowledgeBaseError) throw new CliFailure(error.message, { cause: error });
    throw error;
  }
}
