/**
 * Validation at the edge (STYLE.md 7): what the options page sends becomes a complete `Topic` or
 * `ExtensionSettings` with every default filled in, or a one-sentence reason it cannot.
 */
import { MAX_LINKS_PER_PAGE } from '../../shared/contexts/extract-contexts.ts';
import { NEW_TOPIC_DEFAULTS, TOPIC_DEFAULTS } from '../../shared/model/topic-defaults.ts';
import { NB_FORMS } from '../../shared/model/nb-counts.ts';
import type { Topic } from '../../shared/model/types.ts';
import { compileUrlPattern } from '../../shared/urls/url-pattern.ts';
import { CRAWL_SCOPES, DEFAULT_SERVICE_PORT, type CrawlScope } from '../../shared/service-api/types.ts';
import type { CompanionSettings, CrawlChoice, ExtensionSettings, TopicInput } from '../messages/protocol.ts';

export { NEW_TOPIC_DEFAULTS, TOPIC_DEFAULTS };

export const SETTINGS_DEFAULTS: ExtensionSettings = {
  activeTopicId: null,
  excludedSites: [],
  maxLinksPerPage: 2000,
};

export const WINDOW_RANGE = [10, 1000] as const;
/** The options page's range for links per page; its top is the pipeline's own cap. */
export const MAX_LINKS_RANGE = [10, MAX_LINKS_PER_PAGE] as const;

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

/** Trimmed, non-empty, de-duplicated entries in their first order. */
function cleanList(values: readonly string[] | undefined): string[] {
  return [...new Set((values ?? []).map((value) => value.trim()).filter((value) => value !== ''))];
}

function patternError(patterns: readonly string[], which: string): string | null {
  for (const pattern of patterns) {
    try {
      compileUrlPattern(pattern);
    } catch (error) {
      return `${which} pattern "${pattern}": ${(error as Error).message}`;
    }
  }
  return null;
}

/** A full topic from the options page's input; a new id when it has none. */
export function validateTopic(input: TopicInput, newId: () => string = () => crypto.randomUUID()): Checked<Topic> {
  const name = (input.name ?? '').trim();
  if (name === '') return { ok: false, error: 'A topic needs a name.' };
  const positive = cleanList(input.positive);
  const negative = cleanList(input.negative);
  const badPattern = patternError(positive, 'On-topic') ?? patternError(negative, 'Off-topic');
  if (badPattern) return { ok: false, error: badPattern };
  const threshold = input.threshold ?? TOPIC_DEFAULTS.threshold;
  if (!(Number.isFinite(threshold) && threshold > 0 && threshold < 1)) {
    return { ok: false, error: `The threshold must be between 0 and 1 (exclusive), not ${threshold}.` };
  }
  const window = input.window ?? TOPIC_DEFAULTS.window;
  if (!(Number.isInteger(window) && window >= WINDOW_RANGE[0] && window <= WINDOW_RANGE[1])) {
    return { ok: false, error: `The context window must be a whole number of characters from ${WINDOW_RANGE[0]} to ${WINDOW_RANGE[1]}, not ${window}.` };
  }
  const featureGroup = input.featureGroup ?? TOPIC_DEFAULTS.featureGroup;
  if (featureGroup !== 1 && featureGroup !== 2) return { ok: false, error: `The feature group must be 1 or 2, not ${String(featureGroup)}.` };
  const form = input.form ?? TOPIC_DEFAULTS.form;
  if (!NB_FORMS.includes(form)) return { ok: false, error: `The model form must be ${NB_FORMS.join(', ')}, not ${String(form)}.` };
  const urlTokens = input.urlTokens ?? NEW_TOPIC_DEFAULTS.urlTokens;
  if (typeof urlTokens !== 'boolean') return { ok: false, error: `URL tokens are on (true) or off (false), not ${String(urlTokens)}.` };
  const featureVersion = input.featureVersion ?? NEW_TOPIC_DEFAULTS.featureVersion;
  if (featureVersion !== 1 && featureVersion !== 2) return { ok: false, error: `The feature version must be 1 or 2, not ${String(featureVersion)}.` };
  const thresholdMode = input.thresholdMode ?? NEW_TOPIC_DEFAULTS.thresholdMode;
  if (thresholdMode !== 'f1' && thresholdMode !== 'precision' && thresholdMode !== 'fixed') {
    return { ok: false, error: `The threshold is set by f1, precision or fixed, not ${String(thresholdMode)}.` };
  }
  const targetPrecision = input.targetPrecision;
  if (thresholdMode === 'precision' && !(typeof targetPrecision === 'number' && targetPrecision > 0 && targetPrecision < 1)) {
    return { ok: false, error: `The target precision must be between 0 and 1 (exclusive), not ${String(targetPrecision)}.` };
  }
  const id = input.id?.trim() || newId();
  return {
    ok: true,
    value: {
      id,
      name,
      lexicon: cleanList(input.lexicon),
      positive,
      negative,
      threshold,
      featureGroup,
      form,
      window,
      urlTokens,
      featureVersion,
      thresholdMode,
      ...(thresholdMode === 'precision' ? { targetPrecision: targetPrecision! } : {}),
    },
  };
}

/** A host name as the user typed it (or a URL), reduced to its lower-case host. */
export function normalizeHost(value: string): string | null {
  const trimmed = value.trim().toLowerCase();
  if (trimmed === '') return null;
  try {
    const host = new URL(trimmed.includes('://') ? trimmed : `http://${trimmed}`).hostname;
    return host === '' ? null : host.replace(/^www\./, '');
  } catch {
    return null;
  }
}

/** Settings after applying a patch from the options page. */
export function mergeSettings(current: ExtensionSettings, patch: Partial<Omit<ExtensionSettings, 'activeTopicId'>>): Checked<ExtensionSettings> {
  const next = { ...current };
  if (patch.excludedSites !== undefined) {
    const hosts: string[] = [];
    for (const site of patch.excludedSites) {
      if (site.trim() === '') continue;
      const host = normalizeHost(site);
      if (host === null) return { ok: false, error: `"${site}" is not a site: give a host name such as example.org.` };
      if (!hosts.includes(host)) hosts.push(host);
    }
    next.excludedSites = hosts;
  }
  if (patch.maxLinksPerPage !== undefined) {
    const n = patch.maxLinksPerPage;
    if (!(Number.isInteger(n) && n >= MAX_LINKS_RANGE[0] && n <= MAX_LINKS_RANGE[1])) {
      return { ok: false, error: `Links per page must be a whole number from ${MAX_LINKS_RANGE[0]} to ${MAX_LINKS_RANGE[1]}, not ${n}.` };
    }
    next.maxLinksPerPage = n;
  }
  return { ok: true, value: next };
}

// The content script decides it too, from the settings the background publishes for it.
export { isExcluded } from '../messages/page-settings.ts';

/**
 * A crawl from the popup is a look around the page, not a site mirror: 200 pages at the
 * service's default 500 ms per host take under two minutes on one site; depth 3 keeps the crawl
 * near the page the user chose.
 */
export const CRAWL_CHOICE_DEFAULTS: CrawlChoice = { maxPages: 200, maxDepth: 3, scope: 'any' };
export const CRAWL_PAGES_RANGE = [1, 100_000] as const;
export const CRAWL_DEPTH_RANGE = [0, 50] as const;

export const COMPANION_DEFAULTS: CompanionSettings = {
  port: DEFAULT_SERVICE_PORT,
  token: '',
  lastCrawl: null,
  crawlChoice: CRAWL_CHOICE_DEFAULTS,
};

/** The popup's crawl choice, checked: whole numbers in range and a known scope. */
export function validateCrawlChoice(input: unknown): Checked<CrawlChoice> {
  if (typeof input !== 'object' || input === null) return { ok: false, error: 'The crawl choice must name pages, depth and scope.' };
  const { maxPages, maxDepth, scope } = input as Record<string, unknown>;
  const whole = (n: unknown, [low, high]: readonly [number, number]) => Number.isInteger(n) && (n as number) >= low && (n as number) <= high;
  if (!whole(maxPages, CRAWL_PAGES_RANGE)) return { ok: false, error: `Pages must be a whole number from ${CRAWL_PAGES_RANGE[0]} to ${CRAWL_PAGES_RANGE[1]}, not ${String(maxPages)}.` };
  if (!whole(maxDepth, CRAWL_DEPTH_RANGE)) return { ok: false, error: `Depth must be a whole number from ${CRAWL_DEPTH_RANGE[0]} to ${CRAWL_DEPTH_RANGE[1]}, not ${String(maxDepth)}.` };
  if (!CRAWL_SCOPES.includes(scope as CrawlScope)) return { ok: false, error: `The scope must be one of ${CRAWL_SCOPES.join(', ')}, not ${String(scope)}.` };
  return { ok: true, value: { maxPages: maxPages as number, maxDepth: maxDepth as number, scope: scope as CrawlScope } };
}

/** 32 random bytes in base64url are 43 characters; anything from 16 to 256 of that alphabet is accepted. */
const TOKEN = /^[A-Za-z0-9_-]{16,256}$/;

/** Whether a cleaned token (`cleanToken`) has a pairing token's form. */
export const isPairingToken = (token: string): boolean => TOKEN.test(token);

/** The token in what the user pasted: the whole `pairing token: …` line is accepted too. */
export function cleanToken(pasted: string): string {
  return pasted.trim().replace(/^pairing token:\s*/i, '').trim();
}

export function isValidPort(port: unknown): port is number {
  return Number.isInteger(port) && (port as number) >= 1 && (port as number) <= 65_535;
}

/** Port and token as the options page sends them; token '' means "forget the pairing". */
export function validatePairing(port: unknown, token: unknown): Checked<Pick<CompanionSettings, 'port' | 'token'>> {
  if (!isValidPort(port)) return { ok: false, error: `The port must be a whole number from 1 to 65535, not ${String(port)}.` };
  if (typeof token !== 'string') return { ok: false, error: 'The pairing token must be text.' };
  const clean = cleanToken(token);
  if (clean !== '' && !TOKEN.test(clean)) {
    return { ok: false, error: 'That is not a pairing token: paste the letters, digits, "-" and "_" that `linkscent serve` printed after "pairing token:".' };
  }
  return { ok: true, value: { port, token: clean } };
}
