/**
 * What `collect` and `crawl` share: seed checks, the crawl limits both accept, and a Ctrl-C
 * that stops cleanly (the crawl store and the output files stay consistent, a resume goes on).
 */
import { normalizeUrl } from '../../../shared/urls/normalize-url.ts';
import { MAX_RETRIES } from '../../fetch/retry-policy.ts';
import { CRAWL_LIMITS } from '../../crawl/crawl-limits.ts';
import type { Args } from '../args.ts';
import { compileScope, SCOPES, type Scope, type ScopeRules } from '../../crawl/url-scope.ts';
import { UsageError } from '../errors.ts';
import type { CliIo } from '../io.ts';

/** Seeds as given, each checked: a seed that is not an absolute http(s) URL is bad usage. */
export function checkSeedArgs(seeds: readonly string[]): string[] {
  if (seeds.length > CRAWL_LIMITS.seeds) throw new UsageError(`${seeds.length} seeds given, at most ${CRAWL_LIMITS.seeds}`);
  for (const seed of seeds) {
    if (seed.length > CRAWL_LIMITS.seedLength) {
      throw new UsageError(`seed "${seed.slice(0, 60)}…" is ${seed.length} characters long, at most ${CRAWL_LIMITS.seedLength}`);
    }
    if (normalizeUrl(seed.trim(), seed.trim()) === undefined) {
      throw new UsageError(`seed "${seed}" is not an absolute http(s) URL`);
    }
  }
  return [...seeds];
}

/** The crawler options the command line may set; absent flags keep the crawler's defaults. */
export interface CrawlLimits {
  concurrency?: number;
  perHostConcurrency?: number;
  parseThreads?: number;
  delayMs?: number;
  maxDepth?: number;
  retry?: { retries: number };
}

export function crawlLimitOptions(args: Args): CrawlLimits {
  const limits: CrawlLimits = {};
  const known = args.spec.options;
  // The crawler's own bounds (`crawl-limits.ts`), said here as bad usage of the flag.
  if ('concurrency' in known && args.has('concurrency')) limits.concurrency = args.positiveInt('concurrency', CRAWL_LIMITS.concurrency);
  if ('per-host-concurrency' in known && args.has('per-host-concurrency')) {
    limits.perHostConcurrency = args.positiveInt('per-host-concurrency', CRAWL_LIMITS.perHostConcurrency);
  }
  if ('parse-threads' in known && args.has('parse-threads')) limits.parseThreads = args.nonNegativeInt('parse-threads', CRAWL_LIMITS.parseThreads);
  if ('delay-ms' in known && args.has('delay-ms')) limits.delayMs = args.nonNegativeInt('delay-ms', CRAWL_LIMITS.delayMs);
  if ('max-depth' in known && args.has('max-depth')) limits.maxDepth = args.nonNegativeInt('max-depth', CRAWL_LIMITS.maxDepth);
  if ('retries' in known && args.has('retries')) {
    const retries = args.nonNegativeInt('retries');
    if (retries > MAX_RETRIES) throw new UsageError(`--retries must be at most ${MAX_RETRIES}, got "${args.string('retries')}"`);
    limits.retry = { retries };
  }
  return limits;
}

/** --scope, --allow and --deny, checked (a bad pattern is bad usage, before any work). */
export function scopeOf(args: Args): ScopeRules {
  const scope = args.choice<Scope>('scope', SCOPES);
  const rules: ScopeRules = { scope, allow: args.list('allow'), deny: args.list('deny') };
  try {
    compileScope(rules, []);
  } catch (error) {
    throw new UsageError((error as Error).message, { cause: error });
  }
  return rules;
}

/** The exit code of a command stopped by Ctrl-C: 128 + SIGINT, as shells report it. */
export const EXIT_INTERRUPTED = 130;

export interface Interrupt {
  signal: AbortSignal;
  dispose(): void;
}

/**
 * First Ctrl-C (or SIGTERM): stop claiming URLs and finish cleanly, so the summary prints and
 * a resume continues. A second Ctrl-C exits at once (130), as a user pressing it twice means.
 */
export function installInterrupt(io: CliIo, command: string): Interrupt {
  const controller = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) process.exit(EXIT_INTERRUPTED);
    io.warn(`linkscent ${command}: stopping (press Ctrl-C again to quit at once)`);
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
