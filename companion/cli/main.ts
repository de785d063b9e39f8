/**
 * `linkscent <command> …`: dispatch, help, version and exit codes.
 *
 * Exit codes: 0 done; 2 bad usage (nothing was done); 1 the command failed while running;
 * 130 a crawl stopped cleanly by Ctrl-C (its files are consistent; --resume goes on).
 * Any failure prints exactly one line on stderr, `linkscent <command>: <what and which>`, so
 * that scripts and people both see what to fix. Set LINKSCENT_DEBUG=1 for the stack as well.
 *
 * Only the option specs are loaded up front; a command's implementation (jieba, Dexie, the
 * crawler) is imported after its arguments have been checked, so help and usage errors are fast.
 */
import { readFileSync } from 'node:fs';
import { oneLine } from '../platform/one-line.ts';
import { parseCommandArgs, type Args } from './args.ts';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError } from './errors.ts';
import { commandHelp, topHelp } from './help.ts';
import { processIo, type CliIo } from './io.ts';
import { COMMANDS, type CommandName } from './specs.ts';
import { packageFile } from '../platform/package-root.ts';
import { keepWasmOnBaseline } from '../platform/wasm-tiers.ts';

/** What every command module exports. */
export interface CommandModule {
  /** Resolves when done; a number is the exit code (130 after a clean stop on Ctrl-C). */
  run(args: Args, io: CliIo): Promise<void | number>;
}

/** Commands that crawl and whose memory is a goal: jieba-wasm stays on Liftoff in them (platform/wasm-tiers.ts). */
const CRAWLING: ReadonlySet<CommandName> = new Set(['crawl', 'serve']);

const LOADERS: Record<CommandName, () => Promise<CommandModule>> = {
  collect: () => import('./commands/collect.ts'),
  train: () => import('./commands/train.ts'),
  eval: () => import('./commands/eval.ts'),
  crawl: () => import('./commands/crawl.ts'),
  serve: () => import('./commands/serve.ts'),
  export: () => import('./commands/export.ts'),
  why: () => import('./commands/why.ts'),
  status: () => import('./commands/status.ts'),
};

function version(): string {
  const pkg = JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version?: string };
  return pkg.version ?? 'unknown';
}

export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined) {
    io.warn('linkscent: missing command; run linkscent --help');
    return EXIT_USAGE;
  }
  if (command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(topHelp(version()));
    return EXIT_OK;
  }
  if (command === '--version' || command === '-v') {
    io.out(version());
    return EXIT_OK;
  }
  const spec = COMMANDS.find((candidate) => candidate.name === command);
  if (spec === undefined) {
    const what = command.startsWith('-') ? `unknown option ${command}` : `unknown command "${command}"`;
    io.warn(`linkscent: ${what}; commands: ${COMMANDS.map((c) => c.name).join(', ')} (or --help, --version)`);
    return EXIT_USAGE;
  }
  try {
    const parsed = parseCommandArgs(spec, rest);
    if (parsed.help) {
      process.stdout.write(commandHelp(spec));
      return EXIT_OK;
    }
    if (CRAWLING.has(spec.name)) keepWasmOnBaseline();
    const module = await LOADERS[spec.name]();
    return (await module.run(parsed.args, io)) ?? EXIT_OK;
  } catch (error) {
    io.warn(`linkscent ${spec.name}: ${oneLine(error)}`);
    if (process.env.LINKSCENT_DEBUG && error instanceof Error) process.stderr.write(`${error.stack ?? ''}\n`);
    return error instanceof UsageError ? EXIT_USAGE : EXIT_FAILURE;
  }
}
