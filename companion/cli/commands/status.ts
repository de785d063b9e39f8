/**
 * `linkscent status --frontier redis://…`: the shared crawl as Redis holds it, whichever
 * workers run it (`frontier/redis/shared-status.ts`).
 */
import type { Args } from '../args.ts';
import { CliFailure, UsageError } from '../errors.ts';
import type { CliIo } from '../io.ts';
import { FrontierUrlError, parseRedisFrontierUrl } from '../../frontier/redis/redis-url.ts';

export async function run(args: Args, io: CliIo): Promise<number | void> {
  let url;
  try {
    url = parseRedisFrontierUrl(args.requireString('frontier'));
  } catch (error) {
    if (error instanceof FrontierUrlError) throw new UsageError(error.message, { cause: error });
    throw error;
  }
  const { sharedCrawlStatus, statusLines } = await import('../../frontier/redis/shared-status.ts');
  let status;
  try {
    status = await sharedCrawlStatus(url);
  } catch (error) {
    throw new CliFailure((error as Error).message, { cause: error });
  }
  if (args.flag('json')) io.out(JSON.stringify(status));
  else for (const line of statusLines(status)) io.out(line);
  return status.strategy === null ? 1 : undefined;
}
