/**
 * Popup and options → background, the companion half: pairing, "Crawl from here", the last
 * crawl's progress, and pulling the labels a crawl learned back into the topic's examples.
 *
 * Every call to the service goes through `companion-client/client.ts` from here (see its header for why
 * the background, not the pages). Failures come back as `CompanionFailure`s naming the problem,
 * so the pages can say in the user's language what to do about it.
 */
import type { Topic } from '../../shared/model/types.ts';
import { normalizeUrl } from '../../shared/urls/normalize-url.ts';
import type { CrawlInfo, CrawlRequest, CrawlScope } from '../../shared/service-api/types.ts';
import { CompanionError, createCompanionClient, type CompanionClient } from '../companion-client/client.ts';
import type { CompanionSettings, CrawlChoice } from '../messages/settings.ts';
import type { CompanionFailure, CrawlProblem, CrawlView } from '../messages/views.ts';
import { activeTopic } from '../storage/stores.ts';
import { CRAWL_CHOICE_DEFAULTS, validateCrawlChoice, validatePairing } from '../storage/validate.ts';
import type { UiHandlers } from './router.ts';
import { publishPageSettings, refreshAllTabs, type BackgroundServices } from './services.ts';

/** Limits of a crawl started from the popup when the user chose none (`CRAWL_CHOICE_DEFAULTS` says why). */
export const CRAWL_FROM_HERE: Pick<CrawlRequest, 'maxPages' | 'maxDepth'> = { maxPages: CRAWL_CHOICE_DEFAULTS.maxPages, maxDepth: CRAWL_CHOICE_DEFAULTS.maxDepth };

/**
 * The request fields of a scope. The older field says 'any' and 'seed-hosts' (`sameSite`), which
 * every service version accepts; only 'seed-domains' needs `scope`, which a service from before it
 * refuses with a line naming the field, rather than crawl wider than asked.
 */
export function scopeFields(scope: CrawlScope): Pick<CrawlRequest, 'scope' | 'sameSite'> {
  if (scope === 'seed-hosts') return { sameSite: true };
  if (scope === 'seed-domains') return { scope };
  return {};
}

type CompanionHandlers = Pick<UiHandlers, 'companion/get' | 'companion/pair' | 'companion/status' | 'crawl/start' | 'crawl/get' | 'crawl/pull-labels'>;

/** A failure the pages translate by `problem`; `error` is the English line (logs, tests). */
function refusal(problem: CrawlProblem, error: string, port: number, detail?: string): CompanionFailure {
  return { ok: false, problem, error, port, ...(detail === undefined ? {} : { detail }) };
}

/** A thrown error as a reply: the client's problems keep their name; anything else is ours. */
function failure(error: unknown, port: number): CompanionFailure {
  if (error instanceof CompanionError) return refusal(error.problem, error.message, port, error.detail);
  return refusal('internal', error instanceof Error ? error.message : String(error), port);
}

export function createCompanionHandlers(services: BackgroundServices): CompanionHandlers {
  const { companion, topics, settings, worker } = services;

  const clientOf = (stored: Pick<CompanionSettings, 'port' | 'token'>): CompanionClient =>
    createCompanionClient({ port: stored.port, token: stored.token, ...(services.fetch ? { fetch: services.fetch } : {}) });

  const view = (client: CompanionClient, info: CrawlInfo, choice?: CrawlChoice): CrawlView => ({
    info,
    dashboardUrl: client.dashboardUrl(info),
    ...(choice === undefined ? {} : { choice }),
  });

  async function statusOf(client: CompanionClient) {
    const status = await client.status();
    return { version: status.version, port: typeof status.port === 'number' ? status.port : Number(new URL(client.baseUrl).port), crawls: status.crawls.length };
  }

  return {
    async 'companion/get'() {
      const { port, token, crawlChoice } = await companion.get();
      return { port, token, crawlChoice };
    },

    async 'companion/pair'({ port, token }) {
      const checked = validatePairing(port, token);
      if (!checked.ok) return checked;
      const before = await companion.get();
      // A new port or token may be another companion, which does not know the last crawl.
      const changed = before.port !== checked.value.port || before.token !== checked.value.token;
      await companion.put({ ...checked.value, ...(changed ? { lastCrawl: null } : {}) });
      // Content scripts leave the companion's pages alone by its port.
      if (before.port !== checked.value.port) await publishPageSettings(services);
      if (checked.value.token === '') return { ok: true, status: null };
      try {
        return { ok: true, status: await statusOf(clientOf(checked.value)) };
      } catch (error) {
        return failure(error, checked.value.port);
      }
    },

    async 'companion/status'() {
      const stored = await companion.get();
      try {
        return { ok: true, status: await statusOf(clientOf(stored)) };
      } catch (error) {
        return failure(error, stored.port);
      }
    },

    async 'crawl/start'({ pageUrl, choice: asked }) {
      const stored = await companion.get();
      const checkedChoice = asked === undefined ? ({ ok: true, value: stored.crawlChoice } as const) : validateCrawlChoice(asked);
      if (!checkedChoice.ok) return refusal('internal', checkedChoice.error, stored.port);
      const choice = checkedChoice.value;
      if (asked !== undefined) await companion.put({ crawlChoice: choice });
      const topic = await activeTopic(topics, settings);
      if (topic === null) return refusal('no-topic', 'Choose or create a topic first.', stored.port);
      const seed = typeof pageUrl === 'string' ? normalizeUrl(pageUrl, pageUrl) : undefined;
      if (seed === undefined || !/^https?:\/\//.test(seed)) return refusal('not-web-page', 'A crawl starts from a web page (http or https).', stored.port);
      // The companion refuses a model trained on nothing, and a crawl by it would learn nothing.
      const { byLabel } = await worker.call('counts', (remote) => remote.counts(topic));
      if (byLabel.on + byLabel.off === 0) {
        return refusal('no-examples', 'The topic has no labeled examples yet: browse pages its patterns label, or mark links, before crawling.', stored.port);
      }
      const client = clientOf(stored);
      try {
        // Asked first, so a companion that is not there or refuses the token is reported before
        // the topic's model is exported (which takes a moment on a large topic).
        await client.status();
        const fileText = await worker.call('exportTopic', (remote) => remote.exportTopic(topic));
        const model = await client.uploadModel(fileText);
        const topicId = model.topics.some((t) => t.id === topic.id) ? topic.id : model.topics[0]?.id;
        const info = await client.startCrawl({
          seeds: [seed],
          modelId: model.modelId,
          ...(topicId ? { topicId } : {}),
          maxPages: choice.maxPages,
          maxDepth: choice.maxDepth,
          ...scopeFields(choice.scope),
        });
        await companion.put({ lastCrawl: { id: info.id, topicId: topic.id, startedAt: Date.now(), choice } });
        return { ok: true, crawl: view(client, info, choice) };
      } catch (error) {
        return failure(error, stored.port);
      }
    },

    async 'crawl/get'() {
      const stored = await companion.get();
      const paired = stored.token !== '';
      if (stored.lastCrawl === null || !paired) return { ok: true, crawl: null, paired };
      const client = clientOf(stored);
      try {
        return { ok: true, crawl: view(client, await client.crawl(stored.lastCrawl.id), stored.lastCrawl.choice), paired };
      } catch (error) {
        // The companion forgot the crawl (another home directory): stop showing it.
        if (error instanceof CompanionError && error.problem === 'not-found') {
          await companion.put({ lastCrawl: null });
          return { ok: true, crawl: null, paired };
        }
        return failure(error, stored.port);
      }
    },

    async 'crawl/pull-labels'() {
      const stored = await companion.get();
      const last = stored.lastCrawl;
      if (last === null) return refusal('no-crawl', 'No crawl was started from this browser yet.', stored.port);
      // Into the crawl's own topic, which may no longer be the active one.
      const topic: Topic | undefined = await topics.get(last.topicId);
      if (topic === undefined) return refusal('topic-gone', 'The topic this crawl was started for no longer exists.', stored.port);
      const client = clientOf(stored);
      try {
        const info = await client.crawl(last.id);
        const fileText = await client.labels(last.id);
        let merged;
        try {
          merged = await worker.call('mergeLabels', (remote) => remote.mergeLabels(topic, fileText, info.topic?.id ?? topic.id));
        } catch (error) {
          const why = error instanceof Error ? error.message : String(error);
          return refusal('bad-labels', `The companion's labels file could not be merged: ${why}`, stored.port, why);
        }
        // New examples changed the model: pages re-score their links, as after any learning.
        if (merged.added > 0) await refreshAllTabs(services);
        return { ok: true, ...merged };
      } catch (error) {
        return failure(error, stored.port);
      }
    },
  };
}
