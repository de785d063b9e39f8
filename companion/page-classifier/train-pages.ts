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
import type { KnowledgeEntry } from '../../shared/features/knowledge-base.ts';
import type { PageSegments } from '../../shared/segments/types.ts';
import { readLabeledPages, type LabeledPageLine } from './labeled-pages.ts';
import { PageClassifier, pageTextOf, type LabeledPageText, type PageMethod } from './page-classifier.ts';

export interface ReadPagesOptions {
  /** Delay in ms between two fetches. */
  delayMs: number;
  warn: (line: string) => void;
}

export interface TrainPagesOptions extends ReadPagesOptions {
  topK: number;
  /** Default `zones`. */
  method?: PageMethod;
  /** extracted: the knowledge base. */
  knowledgeBase?: readonly KnowledgeEntry[];
}

export interface LabeledPages {
  pages: { page: PageSegments; label: LabeledPageLine['label'] }[];
  /** Bad lines and pages that could not be fetched. */
  skipped: number;
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
async function htmlOf(lines: readonly LabeledPageLine[], options: ReadPagesOptions): Promise<(string | null)[]> {
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

/** The usable pages of a labeled pages file, parsed; bad lines and pages that cannot be fetched are warned about and counted. */
export async function readLabeledPagesFile(path: string, options: ReadPagesOptions): Promise<LabeledPages> {
  const { pages: lines, problems } = readLabeledPages(path);
  if (lines.length === 0) {
    throw new Error(`no valid labeled pages in ${path}${nothingUsableNote(problems, 'the file is empty')}`);
  }
  warnSkippedLines(problems, options.warn);
  const htmls = await htmlOf(lines, options);
  const pages: LabeledPages['pages'] = [];
  lines.forEach((line, i) => {
    const html = htmls[i];
    if (html == null) return;
    pages.push({ page: segmentsFromHtml(html, /^https?:/i.test(line.url) ? line.url : 'http://localhost/'), label: line.label });
  });
  return { pages, skipped: problems.length + (lines.length - pages.length) };
}

/** Trains a page classifier on labeled pages; throws when they are not both positive and negative. */
export function trainOnPages(pages: LabeledPages['pages'], options: Pick<TrainPagesOptions, 'topK' | 'method' | 'knowledgeBase'>): PageClassifier {
  const method = options.method ?? 'zones';
  const labeled: LabeledPageText[] = pages.map(({ page, label }) => ({ text: pageTextOf(page, method), label }));
  const positives = labeled.filter((page) => page.label === 1).length;
  if (positives === 0 || positives === labeled.length) {
    throw new Error(`the ${labeled.length} usable pages are all ${positives === 0 ? 'negative' : 'positive'}; a classifier needs both labels`);
  }
  return PageClassifier.train(labeled, loadNodeTokenizer(), { topK: options.topK, method, knowledgeBase: options.knowledgeBase });
}

export async function trainPageClassifierFromFile(path: string, out: string, options: TrainPagesOptions): Promise<TrainPagesResult> {
  const { pages, skipped } = await readLabeledPagesFile(path, options);
  const classifier = trainOnPages(pages, options);
  // Write then rename: a crash mid-write never leaves a half model under the real name.
  writeFileAtomic(out, `${JSON.stringify(classifier.toFile())}\n`);
  return {
    pages: pages.length,
    positives: classifier.trainedOn.positives,
    negatives: classifier.trainedOn.negatives,
    features: classifier.features.length,
    candidates: classifier.trainedOn.candidates,
    skipped,
  };
}
