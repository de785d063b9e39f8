/**
 * `linkscent serve`: the loopback service the extension talks to (companion/service/, contract in
 * docs/service-api.md). Starts it, prints the pairing token and the dashboard address once, and
 * stops it on Ctrl-C or SIGTERM; crawls still running then resume at the next start.
 */
import type { Args } from '../args.ts';
import { CliFailure, UsageError } from '../errors.ts';
import type { CliIo } from '../io.ts';

export async function run(args: Args, io: CliIo): Promise<void> {
  const port = args.has('port') ? args.nonNegativeInt('port') : undefined;
  if (port !== undefined && port > 65535) throw new UsageError(`--port must be at most 65535, got ${port}`);
  const { startService } = await import('../../service/server.ts');
  let service;
  try {
    service = await startService({
      ...(port !== undefined ? { port } : {}),
      resetPairing: args.flag('reset-pairing'),
      ...(args.has('frontier') ? { frontier: args.string('frontier')! } : {}),
      log: (line) => io.warn(line),
    });
  } catch (error) {
    throw new CliFailure((error as Error).message, { cause: error });
  }
  io.out(`serve: listening on ${service.url} (Ctrl-C to stop)`);
  io.out(`pairing token: ${service.token}`);
  io.out(`dashboard: ${service.url}/dashboard?token=${service.token}`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await service.close();
}
