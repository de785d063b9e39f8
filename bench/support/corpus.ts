/**
 * The benchmarks' real-HTML corpus: Debian's documentation packages that
 * bench/fetch-debian-docs.sh unpacks into bench/data/sites/<package>/.
 *
 * Each HTML file becomes a page at a stable synthetic URL, `https://<package>.docs.test/<path>`
 * (`.test` is reserved, RFC 6761), with `<path>` its path inside the package. The package's own
 * relative links therefore resolve to other pages of the same corpus, as on a real site. Bytes
 * are decoded the way the companion decodes a fetched page (`decodeHtml`: BOM, then
 * `<meta charset>`, then UTF-8 / GB18030 sniffing); there is no Content-Type header on disk.
 *
 * Files are listed in a fixed order (package, then path, by code unit) so every run, and every
 * machine, sees the same pages in the same order.
 *
 * The benches check the corpus against `EXPECTED_PAGES` before they measure (as Scrapy's bench
 * checks what it crawled): a package missing, half unpacked or of another release would print
 * figures that look fine and compare with nothing, so the bench stops with one line instead.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { decodeHtml } from '../../companion/fetch/charset.ts';

/** bench/data/sites, where fetch-debian-docs.sh unpacks the packages. */
export const SITES_DIR = resolve(import.meta.dirname, '../data/sites');

/** A Chinese documentation package: `zh`, `zh-cn`, `zh-tw` as a name part (not python3.11-doc). */
export const CHINESE_PACKAGE = /(?:^|-)zh(?:-|$)/u;

/**
 * HTML pages per package as this loader counts them, in the Debian 12 packages that
 * fetch-debian-docs.sh downloads. A count within `PAGE_COUNT_TOLERANCE` passes (a point release
 * adds or drops a few pages); anything else means the benches would not measure what their
 * figures say.
 */
export const EXPECTED_PAGES: Readonly<Record<string, number>> = {
  'debian-edu-doc-zh-cn': 2,
  'debian-faq-zh-cn': 17,
  'debian-reference-zh-cn': 15,
  'debian-reference-zh-tw': 15,
  'gimp-help-zh-cn': 685,
  'libreoffice-help-zh-cn': 2561,
  'lilypond-doc-html-zh': 171,
  'linuxcnc-doc-zh-cn': 1,
  'maint-guide-zh-cn': 11,
  'maint-guide-zh-tw': 11,
  'python3.11-doc': 530,
};

/** ±10% of the expected count, rounded outwards (so a one-page package must have exactly one). */
export const PAGE_COUNT_TOLERANCE = 0.1;

/** The range of page counts accepted for a package expected to have `expected` pages. */
export function acceptedRange(expected: number): [number, number] {
  return [Math.floor(expected * (1 - PAGE_COUNT_TOLERANCE)), Math.ceil(expected * (1 + PAGE_COUNT_TOLERANCE))];
}

/**
 * What is wrong with the corpus for a bench reading `packages`, in one line naming the package
 * and the counts; undefined when every package is there with its expected number of pages.
 * `found` counts pages per package (`Corpus.sites`, or `countPages`).
 */
export function corpusProblem(bench: string, packages: readonly string[], found: ReadonlyMap<string, number>, sitesDir: string = SITES_DIR): string | undefined {
  const fix = 'run bench/fetch-debian-docs.sh (remove a damaged package folder first)';
  for (const name of packages) {
    const expected = EXPECTED_PAGES[name];
    if (expected === undefined) return `${bench}: no expected page count for package ${name}; add it to EXPECTED_PAGES in bench/support/corpus.ts`;
    const pages = found.get(name) ?? 0;
    const [min, max] = acceptedRange(expected);
    if (pages === 0) return `${bench}: package ${name} is missing from ${sitesDir}; ${fix}`;
    if (pages < min || pages > max) {
      return `${bench}: package ${name} has ${pages} HTML pages, expected ${min}–${max} (${expected} ± ${PAGE_COUNT_TOLERANCE * 100}%); ${fix}, or update EXPECTED_PAGES`;
    }
  }
  return undefined;
}

/** Pages per package, counted without reading them. */
export function countPages(options: CorpusOptions = {}): Map<string, number> {
  const counts = new Map<string, number>();
  for (const file of listCorpusFiles(options)) counts.set(file.site, (counts.get(file.site) ?? 0) + 1);
  return counts;
}

/** The Chinese packages of `EXPECTED_PAGES`, the default corpus. */
export const CHINESE_PACKAGES: readonly string[] = Object.keys(EXPECTED_PAGES).filter((name) => CHINESE_PACKAGE.test(name));

/** HTML files by extension; compressed copies (`.html.gz`) are left out. */
const HTML_FILE = /\.(?:html?|xhtml)$/iu;

export interface CorpusFile {
  /** The Debian package (the folder under bench/data/sites). */
  site: string;
  /** Absolute path on disk. */
  path: string;
  /** The page's synthetic URL, `https://<package>.docs.test/<path in package>`. */
  url: string;
}

export interface CorpusPage extends CorpusFile {
  /** Decoded text. */
  html: string;
  /** Size on disk in bytes. */
  bytes: number;
  /** The charset `decodeHtml` used, and on what evidence. */
  charset: string;
  charsetSource: string;
}

export interface SiteStats {
  pages: number;
  bytes: number;
}

export interface Corpus {
  pages: CorpusPage[];
  /** Sum of `bytes` over the pages. */
  totalBytes: number;
  /** Pages and bytes per package, in package order. */
  sites: Map<string, SiteStats>;
  /** Pages per `charset (source)`, e.g. `utf-8 (meta)`. */
  charsets: Map<string, number>;
  /** Wall time of reading and decoding, in milliseconds. */
  loadMs: number;
}

export interface CorpusOptions {
  /** Default `SITES_DIR`. */
  sitesDir?: string;
  /** Which packages to take. Default: the Chinese ones (`CHINESE_PACKAGE`). */
  site?: (name: string) => boolean;
  /** At most this many pages, taken in corpus order. Default: all. */
  limit?: number;
}

/** The host label of a package: lower case, anything but `[a-z0-9-]` becomes `-`. */
export function siteHost(site: string): string {
  return `${site.toLowerCase().replace(/[^a-z0-9-]/gu, '-')}.docs.test`;
}

/** The synthetic URL of the file at `pathInSite` (POSIX or native separators) of `site`. */
export function pageUrlOf(site: string, pathInSite: string): string {
  const path = pathInSite.split(sep).join('/').split('/').map(encodeURIComponent).join('/');
  return `https://${siteHost(site)}/${path}`;
}

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A symbolic link that resolves to a file (packages link some pages under two names; some links dangle). */
function isLinkToFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Every HTML file under `dir`, absolute paths, in code-unit order at each level. */
function htmlFilesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => byCodeUnit(a.name, b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      out.push(...htmlFilesUnder(path)); // a linked folder is not followed: no cycles, no duplicates
    } else if (HTML_FILE.test(entry.name) && (entry.isFile() || isLinkToFile(path))) {
      out.push(path);
    }
  }
  return out;
}

/** The packages present under `sitesDir`, sorted; empty when it does not exist. */
export function listSites(sitesDir: string = SITES_DIR): string[] {
  let entries;
  try {
    entries = readdirSync(sitesDir, { withFileTypes: true });
  } catch {
    return [];
  }
  // `.tmp` folders are fetch-debian-docs.sh's half-unpacked packages.
  return entries.filter((e) => e.isDirectory() && !e.name.endsWith('.tmp')).map((e) => e.name).sort(byCodeUnit);
}

/** The corpus's files, in corpus order, without reading them. */
export function listCorpusFiles(options: CorpusOptions = {}): CorpusFile[] {
  const sitesDir = options.sitesDir ?? SITES_DIR;
  const wanted = options.site ?? ((name: string) => CHINESE_PACKAGE.test(name));
  const files: CorpusFile[] = [];
  for (const site of listSites(sitesDir).filter(wanted)) {
    const root = join(sitesDir, site);
    for (const path of htmlFilesUnder(root)) files.push({ site, path, url: pageUrlOf(site, relative(root, path)) });
  }
  return options.limit === undefined ? files : files.slice(0, options.limit);
}

/** Reads and decodes the corpus (see the file header). */
export function loadCorpus(options: CorpusOptions = {}): Corpus {
  const started = performance.now();
  const pages: CorpusPage[] = [];
  const sites = new Map<string, SiteStats>();
  const charsets = new Map<string, number>();
  let totalBytes = 0;
  for (const file of listCorpusFiles(options)) {
    const bytes = readFileSync(file.path);
    const decoded = decodeHtml(bytes);
    pages.push({ ...file, html: decoded.text, bytes: bytes.length, charset: decoded.charset, charsetSource: decoded.source });
    totalBytes += bytes.length;
    const site = sites.get(file.site) ?? { pages: 0, bytes: 0 };
    site.pages++;
    site.bytes += bytes.length;
    sites.set(file.site, site);
    const key = `${decoded.charset} (${decoded.source})`;
    charsets.set(key, (charsets.get(key) ?? 0) + 1);
  }
  return { pages, totalBytes, sites, charsets, loadMs: performance.now() - started };
}
