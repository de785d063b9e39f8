/**
 * `train --pages`: from a labeled pages file to a saved page classifier. Pages given with their
 * HTML are used as they are; pages given by URL are fetched one after another, politely
 * (robots.txt, the crawler's User-Agent, timeouts and byte cap, a delay between fetches), and a
 * page that cannot be fetched is reported in one line and left out.
 */
import { segmentsFromHtml } from '../../shared/segments/from-html.ts';
import { fetchPage } from '../fetch/fetch-page.ts';
import { validateFetchOptions } from '../fetch/fetch-options.ts';
import { RobotsCache } from '../fetch/robots.ts';
import { writeFileAtomic } from '../platform/atomic-file.ts';
import { loadNodeTokenizer } from '../platform/jieba-node.ts';
import { nothingUsableNote, warnSkippedLines } from '../platform/input-files.ts';
import { readLabeledPages, type LabeledPageLine } from './labeled-pages.ts';
import { PageClassifier, pageTextOf, type LabeledPageText } from './page-classifier.ts';

export interface TrainPagesOptions {
  topK: number;
  /** Delay in ms between two fetches. */
  delayMs: number;
  warn: (line: string) => void;
}

export interface TrainPagesResult {
  pages: number;
  positives: number;
  negatives: number;
  /** Features kept, and candidate features IG chose from. */
  features: number;
  candidates: number;
  /** Bad lines and pages that could not be fetched. */
  skipped: number;
}

/** The HTML of each line: given, or fetched; null (with a warning) when it cannot be had. */
async function htmlOf(lines: readonly LabeledPageLine[], options: TrainPagesOptions): Promise<(string | null)[]> {
  const fetchOptions = validateFetchOptions({});
  let robots: RobotsCache | undefined;
  const out: (string | null)[] = [];
  let fetched = 0;
  for (const line of lines) {
    if (line.html !== undefined) {
      out.push(line.html);
      continue;
    }
    if (fetched++ > 0 && options.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    robots ??= new RobotsCache({ userAgent: fetchOptions.userAgent, fetch: fetchOptions });
    const page = await fetchPage(line.url, { ...fetchOptions, robots });
    if (page.outcome !== 'ok' || page.html === undefined) {
      options.warn(`warning: ${line.url}: ${page.error ?? page.outcome} (page skipped)`);
      out.push(null);
    } else out.push(page.html);
  }
  return out;
}

export async function trainPageClassifierFromFile(path: string, out: string, options: TrainPagesOptions): Promise<TrainPagesResult> {
  const { pages: lines, problems } = readLabeledPages(path);
  if (lines.length === 0) {
    throw new Error(`no valid labeled pages in ${path}${nothingUsableNote(problems, 'the file is empty')}`);
  }
  warnSkippedLines(problems, options.warn);

  const htmls = await htmlOf(lines, options);
  const labeled: LabeledPageText[] = [];
  lines.forEach((line, i) => {
    const html = htmls[i];
    if (html == null) return;
    labeled.push({ text: pageTextOf(segmentsFromHtml(html, /^https?:/i.test(line.url) ? line.url : 'http://localhost/')), label: line.label });
  });
  const positives = labeled.filter((page) => page.label === 1).length;
  if (positives === 0 || positives === labeled.length) {
    throw new Error(`the ${labeled.length} usable pages are all ${positives === 0 ? 'negative' : 'positive'}; a classifier needs both labels`);
  }
  const classifier = PageClassifier.train(labeled, loadNodeTokenizer(), { topK: options.topK });
  // Write then rename: a crash mid-write never leaves a half model under the real name.
  writeFileAtomic(out, `${JSON.stringify(classifier.toFile())}\n`);
  return {
    pages: labeled.length,
    positives,
    negatives: labeled.length - positives,
    features: classifier.features.length,
    candidates: classifier.trainedOn.candidates,
    skipped: problems.length + (lines.length - labeled.length),
  };
}
