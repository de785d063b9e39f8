/**
 * The extension benchmark's text: real Chinese pages from Debian's documentation packages
 * (bench/fetch-debian-docs.sh unpacks them into bench/data/sites/<package>/), split in two.
 *
 *   - **Training pages**, served as they are under `/site/<package>/<path in package>`: the
 *     Debian FAQ and the New Maintainers' Guide (their links are the topic's on-topic pattern)
 *     and part of the GIMP and LibreOffice manuals (the off-topic pattern). Browsing them labels
 *     their links passively, so the model is trained the way a user trains it.
 *   - **Bench contexts**: link contexts (anchor, text before and after) taken with the shared
 *     pipeline from pages never browsed: the Debian Reference (on topic), the rest of the GIMP
 *     and LibreOffice manuals and LilyPond's (off topic). bench-page.ts lays them out again as a
 *     5,000-link page whose links match no pattern, so only the model decides.
 *
 * Without bench/data/sites the caller falls back to generated text (bench-page.ts says so).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { extractContexts } from '../../shared/contexts/extract-contexts.ts';
import { TOPIC_DEFAULTS } from '../../shared/model/topic-defaults.ts';
import { segmentsFromHtml } from '../../shared/segments/from-html.ts';

export const SITES_DIR = resolve(import.meta.dirname, '../data/sites');

/** Packages whose links the topic calls on topic / off topic, and where the bench page draws from. */
export const ON_TOPIC_SITES = ['debian-faq-zh-cn', 'maint-guide-zh-cn'] as const;
export const OFF_TOPIC_SITES = ['gimp-help-zh-cn', 'libreoffice-help-zh-cn'] as const;
const BENCH_ON_SITES = ['debian-reference-zh-cn'] as const;
const BENCH_OFF_SITES = ['gimp-help-zh-cn', 'libreoffice-help-zh-cn', 'lilypond-doc-html-zh'] as const;
/** Off-topic training pages per package (the first N in path order; the rest feed the bench page). */
const OFF_TRAINING_PAGES = 20;

export interface BenchContext {
  /** Which package the link came from, and whether that package is the topic's. */
  site: string;
  onTopic: boolean;
  /** The page's title, for section headings. */
  title: string;
  anchor: string;
  before: string;
  after: string;
}

export interface DocCorpus {
  /** Paths under `/site/` to browse for training, on-topic packages first. */
  trainingPaths: string[];
  /** Link contexts with Chinese anchors from pages never browsed, in a fixed order. */
  contexts: BenchContext[];
}

const HAN = /\p{Script=Han}/u;

function htmlFiles(dir: string): string[] {
  const files: string[] = [];
  const visit = (path: string) => {
    for (const name of readdirSync(path).sort()) {
      const full = join(path, name);
      const stat = statSync(full, { throwIfNoEntry: false });
      if (stat === undefined) continue; // a symlink out of the package
      if (stat.isDirectory()) visit(full);
      else if (/\.html?$/.test(name)) files.push(full);
    }
  };
  visit(dir);
  return files;
}

/** True when every package the benchmark needs is unpacked. */
export function haveDocs(): boolean {
  return [...ON_TOPIC_SITES, ...OFF_TOPIC_SITES, ...BENCH_ON_SITES, ...BENCH_OFF_SITES].every((site) => existsSync(join(SITES_DIR, site)));
}

/** The file behind `/site/<package>/<path>`, or null when it is not an HTML file of a package. */
export function siteFile(urlPath: string): string | null {
  const match = /^\/site\/([a-z0-9.-]+)\/(.+)$/.exec(urlPath);
  if (!match) return null;
  const root = join(SITES_DIR, match[1]!);
  const file = resolve(root, decodeURIComponent(match[2]!));
  if (!file.startsWith(`${root}/`) || !/\.html?$/.test(file) || !existsSync(file)) return null;
  return file;
}

function sitePath(site: string, file: string): string {
  return `/site/${site}/${relative(join(SITES_DIR, site), file)}`;
}

function contextsOf(site: string, file: string, onTopic: boolean): BenchContext[] {
  const html = readFileSync(file, 'utf8');
  if (html.includes('\uFFFD')) return [];
  const page = segmentsFromHtml(html, `http://docs.invalid${sitePath(site, file)}`);
  return extractContexts(page, { window: TOPIC_DEFAULTS.window })
    .filter(({ anchor }) => HAN.test(anchor) && anchor.length <= 60)
    .map(({ anchor, before, after }) => ({ site, onTopic, title: page.title, anchor, before, after }));
}

/** Reads the packages (a few seconds: about 3,000 pages go through the shared pipeline). */
export function loadDocCorpus(): DocCorpus {
  const trainingPaths: string[] = [];
  for (const site of ON_TOPIC_SITES) trainingPaths.push(...htmlFiles(join(SITES_DIR, site)).map((file) => sitePath(site, file)));
  const offTraining = new Set<string>();
  for (const site of OFF_TOPIC_SITES) {
    // Pages rich in Chinese links, spread over the manual.
    const files = htmlFiles(join(SITES_DIR, site)).filter((file) => contextsOf(site, file, false).length >= 8);
    const step = Math.max(1, Math.floor(files.length / OFF_TRAINING_PAGES));
    for (let i = 0; i < files.length && offTraining.size < OFF_TRAINING_PAGES * (OFF_TOPIC_SITES.indexOf(site) + 1); i += step) {
      offTraining.add(files[i]!);
      trainingPaths.push(sitePath(site, files[i]!));
    }
  }
  const contexts: BenchContext[] = [];
  for (const [sites, onTopic] of [
    [BENCH_ON_SITES, true],
    [BENCH_OFF_SITES, false],
  ] as const) {
    for (const site of sites) {
      for (const file of htmlFiles(join(SITES_DIR, site))) {
        if (!offTraining.has(file)) contexts.push(...contextsOf(site, file, onTopic));
      }
    }
  }
  return { trainingPaths, contexts };
}
