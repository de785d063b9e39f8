/**
 * `linkscent why <url> --out DIR`: why a URL of a crawl came when it did (`crawl/why.ts`): the
 * link that gave it its best score, the score it was claimed with and its rank then, and for an
 * nb crawl the score taken apart with the crawl's model. `--json` prints the reply the service's
 * `GET /api/crawls/:id/why` gives.
 */
import type { WhyReply } from '../../../shared/service-api/types.ts';
import type { Args } from '../args.ts';
import { CliFailure, UsageError } from '../errors.ts';
import type { CliIo } from '../io.ts';
import { openCrawlStore } from './open-crawl.ts';

export async function run(args: Args, io: CliIo): Promise<void> {
  const [url] = args.positionals as [string];
  const dir = args.requireString('out', ' (the crawl directory)');
  const modelFile = args.string('model');
  if (args.has('model-topic') && modelFile === undefined) throw new UsageError('--model-topic needs --model');
  const { explainUrl, UnknownUrlError } = await import('../../crawl/why.ts');
  const store = openCrawlStore(dir);
  let reply: WhyReply;
  try {
    reply = await explainUrl(store, url, {
      tokenizer: async () => (await import('../../platform/jieba-node.ts')).loadNodeTokenizer(),
      ...(modelFile !== undefined ? { modelFile } : {}),
      ...(args.has('model-topic') ? { topic: args.string('model-topic')! } : {}),
    });
  } catch (error) {
    if (error instanceof UnknownUrlError) throw new CliFailure(error.message, { cause: error });
    throw error;
  } finally {
    store.close();
  }
  io.out(args.flag('json') ? JSON.stringify(reply, null, 2) : formatWhy(reply));
}

const figure = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(4));

/** The reply as lines a person reads. */
export function formatWhy(reply: WhyReply): string {
  const lines = [reply.url];
  const state = { queued: 'queued, not fetched yet', 'in-flight': 'being fetched', done: 'fetched', dropped: `dropped (${reply.reason ?? 'no reason kept'})` }[reply.state];
  const page = reply.page ? `: ${reply.page.outcome}, HTTP ${reply.page.status}, at ${reply.page.fetchedAt}${reply.page.relevance !== undefined ? `, relevance ${figure(reply.page.relevance)}` : ''}` : '';
  lines.push(`  ${state}${page}`);
  if (reply.redirectedFrom) lines.push(`  reached by a redirect from ${reply.redirectedFrom}; its link and score follow`);
  const claimed = reply.rank !== undefined ? `claimed at rank ${reply.rank} of the queue, with score ${figure(reply.score)}` : `score ${figure(reply.score)}${reply.state === 'queued' ? ' (not claimed yet)' : ''}`;
  lines.push(`  ${claimed} (${reply.strategy} crawl; higher is fetched sooner)`);
  if (reply.seed) lines.push('  a seed of the crawl');
  if (reply.link) {
    lines.push(`  best link, depth ${reply.depth}: from ${reply.link.parent}`);
    lines.push(`    anchor  ${reply.link.anchor || '(none)'}`);
    lines.push(`    before  ${reply.link.before || '(none)'}`);
    lines.push(`    after   ${reply.link.after || '(none)'}`);
  }
  if (reply.hostPenalty !== 0) lines.push(`  host budget: its host's URLs are lowered by ${reply.hostPenalty} (no on-topic page there yet)`);
  const parts = reply.parts;
  if (!parts) {
    lines.push(`  score parts: ${reply.partsNote ?? 'none'}`);
    return lines.join('\n');
  }
  lines.push('  score parts (the stored link scored again with the crawl\'s model as it last was):');
  lines.push(`    immediate value P(+) = ${figure(parts.immediate)}${parts.byPattern ? ' (the topic\'s URL patterns match it)' : ''}; classifier log-odds ${parts.logOdds.toFixed(3)}`);
  if (parts.future !== null && parts.levels) {
    const levels = parts.levels.map((p, d) => `${d === parts.levels!.length - 1 ? `${d}+` : d}: ${p.toFixed(3)}`).join(', ');
    lines.push(`    future value E[γ^d | d ≥ 1] = ${figure(parts.future)} (γ ${parts.gamma}; P(level) ${levels})`);
    lines.push(`    value v = P(+) + (1 − P(+))·future = ${figure(parts.value)}`);
  } else {
    lines.push(`    value v = P(+) = ${figure(parts.value)} (no level classifier: no future value)`);
  }
  lines.push(`    priority ${figure(parts.priority)}${parts.sentBack ? ' (sent to the back: found on an off-topic page, worth less than r2)' : ''}`);
  if (parts.top.length > 0) {
    lines.push('    top features (log P(f|+)/P(f|−)):');
    for (const { feature, weight } of parts.top) lines.push(`      ${weight >= 0 ? '+' : ''}${weight.toFixed(3)}  ${feature}`);
  }
  return lines.join('\n');
}
