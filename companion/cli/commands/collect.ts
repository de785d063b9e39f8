/**
 * `linkscent collect`: seed 000 §3.2.2's collection of labeled links. A plain breadth-first
 * crawl from the seeds; every link on every fetched page is labeled by its target URL
 * (`shared/labels/`: positive wins, links back to the page itself skipped) and appended to --out as the page arrives.
 *
 * The crawl itself keeps its store in a temporary directory removed at the end: the product
 * of `collect` is the labeled file, which is written page by page and never loses a page.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CRAWL_LIMITS } from '../../crawl/crawl-limits.ts';
import type { Args } from '../args.ts';
import { UsageError } from '../errors.ts';
import type { CliIo } from '../io.ts';
import { labelContexts } from '../../../shared/labels/pattern-labels.ts';
import { patternsFromFlags } from '../pattern-flags.ts';
import { checkSeedArgs, crawlLimitOptions, EXIT_INTERRUPTED, installInterrupt, scopeOf } from './crawl-common.ts';

export async function run(args: Args, io: CliIo): Promise<number | void> {
  // Every check before any work: a bad line costs nothing.
  const seeds = checkSeedArgs(args.positionals);
  const positive = args.list('positive');
  if (positive.length === 0) throw new UsageError('--positive is required: a URL glob (example.org/news/*) or host name of on-topic targets');
  const patterns = patternsFromFlags(positive, args.list('negative'));
  const maxPages = args.positiveInt('max-pages', CRAWL_LIMITS.maxPages);
  const out = args.requireString('out');
  const topic = args.string('topic')!; // its spec has a default
  const window = args.positiveInt('window');
  const limits = crawlLimitOptions(args);
  const scope = scopeOf(args);

  const [{ runCrawl }, { createStrategy }, { createProgressReporter }, { LabeledWriter }] = await Promise.all([
    import('../../crawl/crawler.ts'),
    import('../../crawl/strategies/index.ts'),
    import('../../crawl/progress.ts'),
    import('../labeled-writer.ts'),
  ]);
  const writer = new LabeledWriter(out);
  const crawlDir = mkdtempSync(join(tmpdir(), 'linkscent-collect-'));
  const interrupt = installInterrupt(io, 'collect');
  const report = createProgressReporter();
  let pages = 0;
  try {
    await runCrawl({
      seeds,
      outDir: crawlDir,
      maxPages,
      strategy: createStrategy('bfs'),
      window,
      ...limits,
      scope,
      signal: interrupt.signal,
      onProgress(progress) {
        pages = progress.fetched;
        report(progress);
      },
      hooks: [
        {
          afterParse({ contexts }) {
            writer.writePage(labelContexts(contexts, patterns, { source: 'pattern', topic }));
          },
        },
      ],
    });
  } finally {
    writer.close();
    interrupt.dispose();
    rmSync(crawlDir, { recursive: true, force: true });
  }
  const already = writer.existing > 0 ? `, ${writer.existing} were already in the file` : '';
  io.out(
    `collect: ${pages} pages, ${writer.positives + writer.negatives} examples written ` +
      `(${writer.positives} positive, ${writer.negatives} negative), ${writer.repeats} repeats skipped${already} → ${out}` +
      (interrupt.signal.aborted ? ' (interrupted)' : ''),
  );
  return interrupt.signal.aborted ? EXIT_INTERRUPTED : undefined;
}
