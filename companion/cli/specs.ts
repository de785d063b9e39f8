/**
 * Every command's option spec, in one light module: `main` parses and prints help from these
 * without loading any command's implementation (jieba, Dexie, the crawler), so `--help` and bad
 * usage answer at once.
 *
 * The words here are the command-line contract of DESIGN.md: other tools drive them. Options
 * may be added; an existing option's meaning may not change.
 */
import { CRAWL_LIMITS } from '../crawl/crawl-limits.ts';
import { TOPIC_DEFAULTS } from '../../shared/model/topic-defaults.ts';
import { DEFAULT_SERVICE_PORT } from '../../shared/service-api/types.ts';
import { CRAWL_DEFAULTS } from '../crawl/crawl-options.ts';
import { DEFAULT_PAGES_PER_STEP } from '../crawl/host-budget.ts';
import { DEFAULT_ONLINE_EVERY } from '../crawl/online-learning.ts';
import { DEFAULT_R2 } from '../crawl/strategies/nb-strategy.ts';
import { DEFAULT_BLOCK_THRESHOLD, DEFAULT_LAMBDA } from '../crawl/strategies/lpe-strategy.ts';
import { DEFAULT_RW_THRESHOLD } from '../crawl/strategies/rw-relevance.ts';
import { DEFAULT_SCOPE } from '../crawl/url-scope.ts';
import { DEFAULT_GAMMA } from '../../shared/model/level-classifier.ts';
import { DEFAULT_RETRY_POLICY, MAX_RETRIES } from '../fetch/retry-policy.ts';
import { TEXT_CAP, TITLE_CAP } from '../crawl/page-text-record.ts';
import { DEFAULT_WARC_FILE_BYTES } from '../warc/warc-defaults.ts';
import type { CommandSpec } from './args.ts';

export const DEFAULT_TOPIC = 'default';
export const DEFAULT_TOP_K = 2000;
export const DEFAULT_SPLIT_SEED = 1;

const window = {
  type: 'string',
  value: 'W',
  description: 'Link-context window in characters (seed 000 §3.3)',
  default: String(TOPIC_DEFAULTS.window),
} as const;

/** Scope and URL filters, the same for collect and crawl (`crawl/url-scope.ts`). */
const scopeOptions = {
  scope: { type: 'string', value: 'any|seed-hosts|seed-domains', description: 'Which hosts links may lead to: any, the seeds\' hosts, or the seeds\' registrable domains', default: DEFAULT_SCOPE },
  allow: { type: 'string', multiple: true, value: 'pattern', description: 'Queue only links matching one of these URL patterns (same syntax as --positive)' },
  deny: { type: 'string', multiple: true, value: 'pattern', description: 'Never queue links matching these URL patterns' },
} as const;

const retries = {
  type: 'string',
  value: 'N',
  description: `Attempts after the first when a page fails transiently (reset, refused, timeout, HTTP 408/429/502/503/504); 0 to ${MAX_RETRIES}`,
  default: String(DEFAULT_RETRY_POLICY.retries),
} as const;

// The crawl limits collect and crawl share.
const delayMs = { type: 'string', value: 'D', description: `Least delay in ms between requests to one host, at most ${CRAWL_LIMITS.delayMs}`, default: String(CRAWL_DEFAULTS.delayMs) } as const;
const concurrency = { type: 'string', value: 'C', description: `Pages fetched at once, at most ${CRAWL_LIMITS.concurrency}`, default: String(CRAWL_DEFAULTS.concurrency) } as const;
const perHostConcurrency = { type: 'string', value: 'H', description: `Pages fetched at once from one host, at most ${CRAWL_LIMITS.perHostConcurrency}`, default: String(CRAWL_DEFAULTS.perHostConcurrency) } as const;
const parseThreads = {
  type: 'string',
  value: 'T',
  description: `Threads parsing pages off the main thread, shared by the process's crawls; 0 parses on it; at most ${CRAWL_LIMITS.parseThreads}`,
  defaultText: `${CRAWL_DEFAULTS.parseThreads} here: one per core past the first, at most 4`,
} as const;

/** The address rule and the scope of redirects, for collect and crawl (docs/focused-crawl.md §7). */
const ADDRESS_NOTE =
  'Redirects obey --scope as links do. Addresses: public ones are always fetched; loopback\n' +
  '(127.0.0.0/8, ::1) and private ones (10/8, 172.16/12, 192.168/16, link-local, fc00::/7) only\n' +
  'when a seed is on one of that kind or an --allow pattern names the host (--allow 10.0.0.5);\n' +
  '0.0.0.0 never. Checked when connecting, on the addresses a name resolves to then (so a name\n' +
  'that resolves to 127.0.0.1 is refused too); a refused URL is recorded address-denied.\n' +
  'When no seed\'s host answers at all (refused, not resolvable, timed out), the command stops\n' +
  'before writing anything, in one line naming each seed and why.';

/** How a crawl ends, and what a second one on the same directory meets. */
const STOP_NOTE =
  'At --max-pages, and on Ctrl-C or SIGTERM, fetches in flight are abandoned and stay queued for\n' +
  '--resume; so are the URLs of hosts whose robots.txt could not be fetched, when nothing else is\n' +
  'left to do (stopped by hosts-unreachable). One process at a time in a crawl directory: a\n' +
  'second crawl of it fails in one line naming the one running.';

/** Several processes on one crawl (`frontier/redis/`). */
const SHARED_NOTE =
  'With --frontier redis://host:port/db, any number of crawl processes, on one machine or many,\n' +
  'share one crawl: each gets its own --out DIR (its pages.jsonl), the queue, the dedupe, per-host\n' +
  'delay and robots.txt are shared, and --max-pages counts every process\'s pages. A process that\n' +
  'dies loses nothing: its URLs are fetched by the others once their lease runs out (?lease=MS,\n' +
  'default 60000), or at once when its DIR is resumed (--resume), which also settles the pages it\n' +
  'was recording. Seeds start the crawl; a process may join it with none. nb\'s online learning\n' +
  'and host budget are shared by the processes. Not yet with --warc.\n' +
  'linkscent status --frontier … shows the shared crawl.';

export const collectSpec: CommandSpec = {
  name: 'collect',
  summary: 'collect labeled link examples with a plain breadth-first crawl (seed 000 §3.2.2)',
  usage: [
    'collect <seed-url>... --positive <pattern>... [--negative <pattern>...] --max-pages N --out labeled.jsonl [--delay-ms D]',
  ],
  positionals: { name: '<seed-url>', min: 1 },
  options: {
    positive: { type: 'string', multiple: true, value: 'pattern', description: 'URL glob (* = any run) or bare host of on-topic targets; required' },
    negative: { type: 'string', multiple: true, value: 'pattern', description: 'URL glob or host of off-topic targets; without it every other link is negative' },
    'max-pages': { type: 'string', value: 'N', description: 'Pages to fetch; required' },
    out: { type: 'string', value: 'labeled.jsonl', description: 'JSON-lines file the examples are appended to; required' },
    'delay-ms': delayMs,
    concurrency,
    'per-host-concurrency': perHostConcurrency,
    'parse-threads': parseThreads,
    retries,
    topic: { type: 'string', value: 'NAME', description: 'Topic name written into each example', default: DEFAULT_TOPIC },
    window,
    ...scopeOptions,
  },
  notes: [
    'A link whose URL matches both a positive and a negative pattern is positive: the positive\n' +
      'patterns name the on-topic sites, the negative ones are a catch-all for the rest. With\n' +
      '--negative given, a link matching neither is not written. A link back to the page it is on\n' +
      '(or to a #fragment of it) is not written either: it says nothing about where links lead.\n' +
      'One link context (URL, page, anchor and context) is written once, also across runs into\n' +
      'the same --out file, which is appended to page by page.',
    ADDRESS_NOTE,
  ],
};

/** The page classifier's methods (`page-classifier/page-classifier.ts`), for train --pages and eval --pages. */
const pageMethod = { type: 'string', value: 'zones|extracted|itfidf', description: 'Page classifier: how pages become features (below)', default: 'zones' } as const;
const pageKnowledgeBase = { type: 'string', value: 'FILE', description: 'Page classifier, extracted: related terms to expand features with, "term: related, related" a line (seed 004 §4.3)' } as const;
const PAGE_METHOD_NOTE =
  'Page classifier methods, each ending in a Laplace-smoothed multinomial Naive Bayes:\n' +
  '  zones      title, meta and body words (anchors left out), K features by information gain (seed 004 ch. 4)\n' +
  '  extracted  body = main content (p/li/td/h1 blocks with sentence punctuation, links removed), features\n' +
  '             expanded from --knowledge-base, K by information gain plus the knowledge-base terms (seed 004)\n' +
  '  itfidf     title > keywords > anchors > body weights (4, 3, 2, 1) × idf × information gain, K features\n' +
  '             by mutual information (seed 002 §3)';

export const trainSpec: CommandSpec = {
  name: 'train',
  summary: 'train the link classifier from labeled links, or the page classifier from labeled pages',
  usage: [
    'train <labeled.jsonl>... --out model.json [--features 1|2] [--lexicon FILE] [--form mixed|multinomial|bernoulli] [--positive <pattern>...]',
    'train --pages pages.jsonl --out page-model.json [--top-k K] [--method zones|extracted|itfidf] [--knowledge-base FILE]',
  ],
  positionals: { name: '<labeled.jsonl>', min: 0 },
  options: {
    out: { type: 'string', value: 'model.json', description: 'Model file to write (a Dexie export the extension imports); required' },
    features: { type: 'string', value: '1|2', description: "Seed 000's feature group: 1 anchor words; 2 anchor + context + lexicon flags", default: String(TOPIC_DEFAULTS.featureGroup) },
    lexicon: { type: 'string', value: 'FILE', description: 'Domain lexicon, one term per line (group 2 lexicon flags)' },
    form: { type: 'string', value: 'mixed|multinomial|bernoulli', description: 'Naive Bayes event model (mixed: words multinomial, URL features Bernoulli)', default: TOPIC_DEFAULTS.form },
    topic: { type: 'string', value: 'NAME', description: "Topic name", defaultText: "the examples' topic, else default" },
    window,
    threshold: { type: 'string', value: 'P', description: 'P(+) at or above which a link counts as on topic', default: String(TOPIC_DEFAULTS.threshold) },
    'url-tokens': { type: 'boolean', description: 'URL features: host, path and query words, hosts and directories (the default)' },
    'no-url-tokens': { type: 'boolean', description: 'No URL features: anchor and context alone' },
    positive: { type: 'string', multiple: true, value: 'pattern', description: "On-topic URL patterns kept on the topic (as collect's), so the extension and served crawls go on labeling" },
    negative: { type: 'string', multiple: true, value: 'pattern', description: 'Off-topic URL patterns kept on the topic' },
    pages: { type: 'string', value: 'pages.jsonl', description: 'Train the page classifier from {url, label} or {url, html, label} lines instead' },
    'top-k': { type: 'string', value: 'K', description: 'Page classifier: features kept by information gain (seed 004 ch. 4)', default: String(DEFAULT_TOP_K) },
    'delay-ms': { type: 'string', value: 'D', description: 'Page classifier: ms between fetches of pages given without html', default: String(CRAWL_DEFAULTS.delayMs) },
    method: pageMethod,
    'knowledge-base': pageKnowledgeBase,
  },
  notes: [
    'A bad line (not JSON, a missing or mistyped field) is reported with its file and line number\n' +
      'and skipped; the command fails only when no valid example is left, or only one class is.',
    PAGE_METHOD_NOTE,
  ],
};

export const evalSpec: CommandSpec = {
  name: 'eval',
  summary: 'measure a link classifier on labeled links, or a page classifier on labeled pages',
  usage: [
    'eval <labeled.jsonl> --model model.json',
    'eval <labeled.jsonl> --split 0.7 [--seed S]',
    'eval --pages pages.jsonl --page-model page-model.json',
    'eval --pages pages.jsonl --split 0.7 [--seed S] [--top-k K] [--knowledge-base FILE]',
  ],
  positionals: { name: '<labeled.jsonl>', min: 0, max: 1 },
  options: {
    model: { type: 'string', value: 'model.json', description: 'Model file to evaluate' },
    'model-topic': { type: 'string', value: 'NAME', description: 'Topic to evaluate when the model file holds several' },
    split: { type: 'string', value: 'F', description: 'Instead: train on a shuffled fraction F, test on the rest, groups 1 and 2 side by side' },
    seed: { type: 'string', value: 'S', description: 'Shuffle seed for --split', default: String(DEFAULT_SPLIT_SEED) },
    lexicon: { type: 'string', value: 'FILE', description: '--split: domain lexicon for group 2' },
    form: { type: 'string', value: 'mixed|multinomial|bernoulli', description: '--split: Naive Bayes event model', default: TOPIC_DEFAULTS.form },
    threshold: { type: 'string', value: 'P', description: "P(+) at or above which a link is predicted on topic", defaultText: `the topic's, else ${TOPIC_DEFAULTS.threshold}` },
    'url-tokens': { type: 'boolean', description: '--split: URL features (the default)' },
    'no-url-tokens': { type: 'boolean', description: '--split: no URL features' },
    pages: { type: 'string', value: 'pages.jsonl', description: 'Measure a page classifier on {url, label} or {url, html, label} lines instead' },
    'page-model': { type: 'string', value: 'FILE', description: '--pages: the page classifier (train --pages) to measure' },
    'top-k': { type: 'string', value: 'K', description: '--pages --split: features kept', default: String(DEFAULT_TOP_K) },
    'knowledge-base': pageKnowledgeBase,
    'delay-ms': { type: 'string', value: 'D', description: '--pages: ms between fetches of pages given without html', default: String(CRAWL_DEFAULTS.delayMs) },
  },
  notes: [
    'Prints JSON: {precision, recall, f1, accuracy, n, auc}; with --split, {split, seed, train, test, group1, group2}.\n' +
      'auc: ROC AUC of P(+), how well the model ranks links (what a crawl uses), whatever the threshold.',
    'With --pages: {precision, recall, f1, accuracy, n} (seed 004 §4.5.2: P = a/(a+b), R = a/(a+c),\n' +
      'F = 2PR/(P+R)); with --pages --split, {split, seed, train, test, zones, extracted, itfidf}: each page\n' +
      'classifier method trained on the same part and measured on the rest.',
    PAGE_METHOD_NOTE,
  ],
};

export const crawlSpec: CommandSpec = {
  name: 'crawl',
  summary: 'run a focused crawl in priority order',
  usage: [
    'crawl <seed-url>... [--model model.json] [--strategy nb|bfs|best-first|lpe|best-first-extracted|rw|ipagerank|pagerank] --max-pages N --out DIR [--concurrency C] [--per-host-concurrency H] [--delay-ms D] [--retries N] [--resume] [--warc] [--store-text]',
  ],
  positionals: { name: '<seed-url>', min: 0 },
  options: {
    model: { type: 'string', value: 'model.json', description: 'Link classifier (a Dexie export file) for the nb strategy' },
    'model-topic': { type: 'string', value: 'NAME', description: 'Topic to use when the model file holds several' },
    strategy: { type: 'string', value: 'name', description: 'Frontier order: nb, bfs, best-first, lpe, best-first-extracted, rw, ipagerank, pagerank', defaultText: 'nb with --model, else bfs' },
    'max-pages': { type: 'string', value: 'N', description: 'Pages to fetch; required' },
    out: { type: 'string', value: 'DIR', description: 'Crawl directory (pages.jsonl, the crawl store); required' },
    concurrency,
    'per-host-concurrency': perHostConcurrency,
    'parse-threads': parseThreads,
    'delay-ms': delayMs,
    retries,
    resume: { type: 'boolean', description: 'Continue the crawl stored in DIR' },
    'max-depth': { type: 'string', value: 'N', description: 'Links more than N hops from a seed are not followed', default: String(CRAWL_DEFAULTS.maxDepth) },
    topic: { type: 'string', value: 'keywords', description: 'Topic keywords for best-first, lpe, best-first-extracted, rw and ipagerank' },
    'topic-file': { type: 'string', value: 'FILE', description: 'Topic keywords or sample text for the same strategies, from a file' },
    'topic-dir': { type: 'string', value: 'DIR', description: 'Topic directory (seed 003): DIR/<path>/*.txt sample texts, optional synonyms.txt; with --topic-name' },
    'topic-name': { type: 'string', value: 'NAME', description: 'The topic under --topic-dir, its folder path (e.g. 工业技术/计算机)' },
    synonyms: { type: 'string', value: 'FILE', description: 'rw, ipagerank: synonym list, one group a line, "0.7:" before a near-synonym group', defaultText: "the topic's synonyms.txt, else co-occurrence in the topic's text" },
    'rw-threshold': { type: 'string', value: 'C', description: 'rw, ipagerank: RW relevance below which a link counts as unrelated (seed 003)', default: String(DEFAULT_RW_THRESHOLD) },
    alpha: { type: 'string', value: 'A', description: 'best-first, best-first-extracted: weight of the parent page vs the anchor (seed 004 eq. 5-4)', default: '0.6' },
    lambda: { type: 'string', value: 'L', description: 'lpe: weight of the anchor vs the link context in JFE (seed 002 §4.1)', default: String(DEFAULT_LAMBDA) },
    'block-threshold': { type: 'string', value: 'T', description: "lpe: least similarity of a content block to the topic for its links to take it (seed 002 §4.2)", default: String(DEFAULT_BLOCK_THRESHOLD) },
    'knowledge-base': { type: 'string', value: 'FILE', description: 'best-first-extracted: related terms to expand the topic with, "term: related, related" a line (seed 004 §4.3)' },
    'page-model': { type: 'string', value: 'FILE', description: 'Page classifier (train --pages) judging each page; gives the harvest rate' },
    ...scopeOptions,
    gamma: { type: 'string', value: 'G', description: 'nb: discount per hop of the future value, from 0 to 1', default: String(DEFAULT_GAMMA) },
    r2: { type: 'string', value: 'R', description: 'nb: least value a link on an off-topic page needs to keep its place (seed 001)', default: String(DEFAULT_R2) },
    'online-every': { type: 'string', value: 'N', description: 'nb: learn from the crawl every N pages', default: String(DEFAULT_ONLINE_EVERY) },
    'host-budget': { type: 'string', value: 'K', description: 'nb: a host drops a step after every K pages with no on-topic page', default: String(DEFAULT_PAGES_PER_STEP) },
    'no-pattern-links': { type: 'boolean', description: "nb: value links the topic's URL patterns match by the classifier too, not as certainly on topic" },
    'no-future': { type: 'boolean', description: 'nb: immediate value only (no level classifier)' },
    'no-explore': { type: 'boolean', description: 'nb: keep every link at its value, whatever the page it is on' },
    'no-online': { type: 'boolean', description: 'nb: no learning during the crawl' },
    'no-host-budget': { type: 'boolean', description: 'nb: no host budget' },
    warc: { type: 'boolean', description: 'Write WARC 1.1 files to DIR/warc/: each page\'s request, response (bytes as received) and metadata (score, relevance, outcome) records, gzip per record' },
    'warc-max-bytes': { type: 'string', value: 'N', description: '--warc: start a new file before one would pass N bytes', default: String(DEFAULT_WARC_FILE_BYTES) },
    'store-text': { type: 'boolean', description: `Keep each page's title and main text in the crawl store, for linkscent export (title cut at ${TITLE_CAP} characters, text at ${TEXT_CAP.toLocaleString('en')})` },
    frontier: { type: 'string', value: 'redis://host:port/db', description: 'Share one crawl\'s frontier in Redis with other crawl processes (?crawl=NAME&lease=MS); DIR keeps this process\'s pages', defaultText: 'the crawl store\'s own (SQLite)' },
  },
  notes: [
    'nb orders links by the expected reward of following them, P(+) + (1 − P(+))·Σ_d P(level d | d ≥ 1)·γ^d:\n' +
      'the link classifier\'s P(+) (1 for a link the topic\'s patterns match) and the level classifier\'s\n' +
      'future value (how many hops the topic lies behind the link).\n' +
      'A page is judged on topic by the topic\'s URL patterns when the model carries them (train\n' +
      '--positive); else by --page-model; else by the P(+) of the link that led to it. From a page\n' +
      'judged off topic, links whose value is below --r2 go to the back of the queue. Online learning\n' +
      'needs the patterns or --page-model. Every option and formula: docs/focused-crawl.md.',
    'best-first values a link v = α·(1 + k)·sim(parent page, topic) + (1 − α)·sim(anchor, topic), k = 1 under\n' +
      "the parent's directory, ½ on its host, else 0 (seed 004 eq. 5-4); best-first-extracted does the same over\n" +
      "the parent's main content (p/li/td/h1 blocks with sentence punctuation, links removed, title and meta)\n" +
      'with the topic expanded from --knowledge-base (seed 004 ch. 3–5). lpe cuts the page into content blocks:\n' +
      'a block at least --block-threshold similar to the topic gives its similarity to its links, other links\n' +
      'get λ·sim(anchor) + (1 − λ)·sim(context) (seed 002 §4; cosine of TFC weights).',
    'rw (seed 003) orders links by RW relevance, the mean similarity of their anchor words to the\n' +
      "topic's terms (synonym list, else co-occurrence in the topic's text); ipagerank by PageRank over\n" +
      'the crawled graph with links weighted by RW, kept up to date as pages arrive; pagerank by plain\n' +
      'PageRank. The topic for best-first, lpe, best-first-extracted, rw and ipagerank: --topic,\n' +
      '--topic-file or --topic-dir.',
    ADDRESS_NOTE,
    STOP_NOTE,
    SHARED_NOTE,
  ],
};

export const serveSpec: CommandSpec = {
  name: 'serve',
  summary: 'run the loopback service the extension talks to',
  usage: ['serve [--port P] [--reset-pairing] [--frontier redis://host:port/db]'],
  positionals: { name: 'argument', min: 0, max: 0 },
  options: {
    port: { type: 'string', value: 'P', description: 'Port on 127.0.0.1 (0: any free port)', defaultText: `LINKSCENT_PORT, else ${DEFAULT_SERVICE_PORT}` },
    'reset-pairing': { type: 'boolean', description: 'Make a new pairing token and forget the paired extension' },
    frontier: { type: 'string', value: 'redis://host:port/db', description: 'Run crawls on a frontier shared through Redis, each as ?crawl=<its id>, so crawl --frontier processes can join them', defaultText: 'LINKSCENT_FRONTIER, else each crawl\'s own store' },
  },
  notes: [
    'Prints the pairing token and the dashboard address at start. State (the token, models,\n' +
      'crawls) lives in LINKSCENT_HOME, else $XDG_CONFIG_HOME/linkscent, else ~/.config/linkscent.\n' +
      'Crawls that were running when the service stopped resume when it starts. API: docs/service-api.md.\n' +
      'One service per home: a second serve on the same home fails in one line naming the first.',
  ],
};

export const exportSpec: CommandSpec = {
  name: 'export',
  summary: 'export the page texts a crawl kept (crawl --store-text) as a corpus',
  usage: ['export <crawl-dir> --format jsonl|warc [--out FILE]'],
  positionals: { name: '<crawl-dir>', min: 1, max: 1 },
  options: {
    format: { type: 'string', value: 'jsonl|warc', description: 'jsonl: one line per page {url, title, text, score, relevance, fetchedAt}; warc: WARC conversion records of the text', default: 'jsonl' },
    out: { type: 'string', value: 'FILE', description: 'File to write (replaced when complete); required for warc', defaultText: 'stdout' },
  },
  notes: [
    'One record per page whose text was kept (HTML pages read in full), in fetch order. The warc\n' +
      "format holds the extracted text (as Common Crawl's WET files), not the pages' bytes: a crawl\n" +
      'run with --warc has those in DIR/warc/, and each exported record refers to its response record.',
  ],
};

export const whySpec: CommandSpec = {
  name: 'why',
  summary: 'explain why a URL of a crawl was fetched when it was: its best link, its score taken apart, its rank',
  usage: ['why <url> --out DIR [--model model.json] [--model-topic NAME] [--json]'],
  positionals: { name: '<url>', min: 1, max: 1 },
  options: {
    out: { type: 'string', value: 'DIR', description: 'The crawl directory; required' },
    model: { type: 'string', value: 'model.json', description: 'nb: the model file to score with', defaultText: 'the one the crawl used' },
    'model-topic': { type: 'string', value: 'NAME', description: 'Topic to use when --model holds several' },
    json: { type: 'boolean', description: 'Print the explanation as JSON (what the service\'s GET /api/crawls/:id/why gives)' },
  },
  notes: [
    'The link is the one that gave the URL its best score (its page, anchor and context); the rank is\n' +
      'its place in the queue when a worker claimed it. For an nb crawl the score is taken apart by\n' +
      "scoring that link again with the crawl's model and what it learned online: P(+), the future\n" +
      'value, the value v and the features that weighed most. docs/focused-crawl.md has the formulas.',
  ],
};

export const statusSpec: CommandSpec = {
  name: 'status',
  summary: 'show a crawl shared through Redis: its counts, workers, queued hosts, memory',
  usage: ['status --frontier redis://host:port/db[?crawl=NAME] [--json]'],
  positionals: { name: 'argument', min: 0, max: 0 },
  options: {
    frontier: { type: 'string', value: 'redis://host:port/db', description: 'The shared frontier, as given to crawl --frontier; required' },
    json: { type: 'boolean', description: 'Print the status as one JSON object' },
  },
  notes: ['Exit 1 when Redis holds no crawl of that name.'],
};

export type CommandName = 'collect' | 'train' | 'eval' | 'crawl' | 'serve' | 'export' | 'why' | 'status';
export const COMMANDS: readonly (CommandSpec & { name: CommandName })[] = [collectSpec, trainSpec, evalSpec, crawlSpec, serveSpec, exportSpec, whySpec, statusSpec] as (CommandSpec & { name: CommandName })[];
