/**
 * A saved page classifier as the crawler's `pageJudge`: each parsed page's relevance lands in
 * pages.jsonl and feeds the running harvest-rate estimate (relevant / judged).
 */
import type { PageJudge } from '../crawl/crawl-options.ts';
import { readTextFile } from '../platform/input-files.ts';
import type { Tokenizer } from '../../shared/tokens/types.ts';
import { PageClassifier } from './page-classifier.ts';

/** Reads and checks a page model file; every failure is one Error line naming the file. */
export function loadPageClassifier(path: string, tokenizer: Tokenizer): PageClassifier {
  const text = readTextFile(path);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${path} is not JSON (a page model from linkscent train --pages is)`);
  }
  try {
    return PageClassifier.fromFile(json, tokenizer);
  } catch (error) {
    throw new Error(`${path}: ${(error as Error).message}`, { cause: error });
  }
}

/** The judge reads the page's zones as training did (`pageTextOf` with the model's method): the same page gets the same features both ways. */
export function createPageJudge(classifier: PageClassifier): PageJudge {
  return (page) => classifier.judge(page);
}
