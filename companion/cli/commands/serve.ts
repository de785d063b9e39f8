/**
 * `linkscent serve`: the loopback service the extension talks to. The service itself lives in
 * companion/service/server.ts (another module's job); this command starts it, prints where it
 * listens, and stops it on Ctrl-C or SIGTERM.
 *
 * The service module is looked up at run time, so that the command line works (and says
 * clearly what is missing) in a tree where the service has not been built yet.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Args } from '../args.ts';
import { CliFailure, UsageError } from '../errors.ts';
import type { CliIo } from '../io.ts';

/** What this command needs of the service module; its own options type is authoritative. */
interface ServiceModule {
  startService(options?: { port?: number; log?: (line: string) => void }): Promise<RunningService>;
}

interface RunningService {
  url?: string;
  port?: number;
  close(): Promise<void> | void;
}

const SERVER_URL = new URL('../../service/server.ts', import.meta.url);

export async function run(args: Args, io: CliIo): Promise<void> {
  const port = args.has('port') ? args.nonNegativeInt('port') : undefined;
  if (port !== undefined && port > 65535) throw new UsageError(`--port must be at most 65535, got ${port}`);
  if (!existsSync(fileURLToPath(SERVER_URL))) throw new CliFailure('the service is not built yet');
  // A computed specifier: the module is optional at build time, required only here.
  const module = (await import(SERVER_URL.href)) as Partial<ServiceModule>;
  if (typeof module.startService !== 'function') throw new CliFailure('companion/service/server.ts has no startService()');
  const service = await module.startService({ ...(port !== undefined ? { port } : {}), log: (line) => io.warn(line) });
  io.out(`serve: listening on ${service.url ?? `http://127.0.0.1:${service.port ?? '?'}`} (Ctrl-C to stop)`);
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
