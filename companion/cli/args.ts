/**
 * Argument parsing for every command: node:util's `parseArgs` in strict mode over a typed option
 * spec, then typed, validated reads (STYLE.md 7: options are validated at the edge, and each bad
 * one is reported in one clear line that names it).
 *
 * Anything wrong here throws `UsageError`; `main` prefixes the command name and exits 2.
 */
import { parseArgs } from 'node:util';
import { UsageError } from './errors.ts';

export interface OptionSpec {
  type: 'string' | 'boolean';
  /** May be given more than once (`--positive a --positive b`); values are collected in order. */
  multiple?: boolean;
  /** The value's name in the help text (`--max-pages <N>`). */
  value?: string;
  description: string;
  /**
   * The value taken when the option is not given, as it would be typed: the accessors read it
   * like a given value, and the help text shows it. specs.ts is the one place defaults are set.
   */
  default?: string;
  /**
   * Instead of `default`, for a default that depends on other options or the environment ("nb
   * with --model, else bfs"): shown in the help text only; the command works it out.
   */
  defaultText?: string;
}

export interface CommandSpec {
  name: string;
  /** One line for the top-level help. */
  summary: string;
  /** Usage lines, without the leading `linkscent `. */
  usage: string[];
  positionals: {
    /** As shown in messages and help, e.g. `<seed-url>`. */
    name: string;
    min: number;
    /** Undefined: no upper bound. */
    max?: number;
  };
  options: Record<string, OptionSpec>;
  /** Extra paragraphs for the command's help. */
  notes?: string[];
}

type RawValue = string | boolean | string[] | undefined;

/**
 * A command's parsed arguments, read through typed, validating accessors. An option not given
 * reads as its spec's `default`; `has` tells whether the user gave it.
 */
export class Args {
  constructor(
    readonly spec: CommandSpec,
    readonly positionals: string[],
    private readonly values: Record<string, RawValue>,
  ) {}

  has(name: string): boolean {
    this.#known(name);
    const value = this.values[name];
    return Array.isArray(value) ? value.length > 0 : value !== undefined;
  }

  flag(name: string): boolean {
    this.#known(name);
    return this.values[name] === true;
  }

  /** The option's value as given, else its spec's `default`, else undefined. */
  string(name: string): string | undefined {
    this.#known(name);
    const value = this.values[name];
    return typeof value === 'string' ? value : this.spec.options[name]!.default;
  }

  requireString(name: string, why = ''): string {
    const value = this.string(name);
    if (value === undefined) throw new UsageError(`--${name} is required${why}`);
    if (value.trim() === '') throw new UsageError(`--${name} must not be empty`);
    return value;
  }

  list(name: string): string[] {
    this.#known(name);
    const value = this.values[name];
    return Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
  }

  /** An integer ≥ 1 (and ≤ `max` when given). */
  positiveInt(name: string, max?: number): number {
    return this.#integer(name, 1, 'a positive integer', max);
  }

  /** An integer ≥ 0 (and ≤ `max` when given). */
  nonNegativeInt(name: string, max?: number): number {
    return this.#integer(name, 0, 'a non-negative integer', max);
  }

  /** A finite number within [min, max] (or the open interval when `open`). */
  number(name: string, range: { min: number; max: number; open?: boolean; what: string }): number {
    const raw = this.string(name);
    if (raw === undefined) throw new UsageError(`--${name} is required`);
    const value = raw.trim() === '' ? Number.NaN : Number(raw);
    const inside = range.open ? value > range.min && value < range.max : value >= range.min && value <= range.max;
    if (!Number.isFinite(value) || !inside) throw new UsageError(`--${name} must be ${range.what}, got "${raw}"`);
    return value;
  }

  /** One of a fixed set of words; `fallback` for a default the spec can only describe (`defaultText`). */
  choice<T extends string>(name: string, choices: readonly T[], fallback?: T): T {
    const raw = this.string(name) ?? fallback;
    if (raw === undefined) throw new UsageError(`--${name} is required`);
    if (!(choices as readonly string[]).includes(raw)) {
      throw new UsageError(`--${name} must be one of ${choices.join(', ')}, got "${raw}"`);
    }
    return raw as T;
  }

  #integer(name: string, min: number, what: string, max = Number.MAX_SAFE_INTEGER): number {
    const raw = this.string(name);
    if (raw === undefined) throw new UsageError(`--${name} is required`);
    const value = /^\s*\d+\s*$/.test(raw) ? Number(raw) : Number.NaN;
    if (!Number.isSafeInteger(value) || value < min) throw new UsageError(`--${name} must be ${what}, got "${raw}"`);
    if (value > max) throw new UsageError(`--${name} must be at most ${max}, got "${raw}"`);
    return value;
  }

  #known(name: string): void {
    // A typo in a command's own code, not in the user's input: fail loudly.
    if (!(name in this.spec.options)) throw new Error(`linkscent ${this.spec.name}: no option --${name} in its spec`);
  }
}

/** Every valid `--option` of a spec, for "unknown option" messages. */
export function optionNames(spec: CommandSpec): string[] {
  return [...Object.keys(spec.options), 'help'].map((name) => `--${name}`);
}

/**
 * Parses `argv` (the words after the command name) against `spec`. `--help` is always accepted
 * and reported as `help: true` without further checks, so help works even on a broken line.
 */
export function parseCommandArgs(spec: CommandSpec, argv: string[]): { help: true } | { help: false; args: Args } {
  if (argv.includes('--help') || argv.includes('-h')) return { help: true };
  const options = Object.fromEntries(
    Object.entries(spec.options).map(([name, option]) => [name, { type: option.type, multiple: option.multiple ?? false }]),
  );
  let parsed: ReturnType<typeof parseArgs<{ options: typeof options; strict: true; allowPositionals: true; tokens: true }>>;
  try {
    parsed = parseArgs({ args: argv, options, strict: true, allowPositionals: true, tokens: true });
  } catch (error) {
    throw new UsageError(describeParseError(spec, error));
  }
  // A single-valued option given twice is almost always a mistake; parseArgs would keep the last.
  const seen = new Set<string>();
  for (const token of parsed.tokens ?? []) {
    if (token.kind !== 'option' || spec.options[token.name]?.multiple) continue;
    if (seen.has(token.name)) throw new UsageError(`--${token.name} given more than once`);
    seen.add(token.name);
  }
  const { positionals } = parsed;
  const { name, min, max } = spec.positionals;
  if (positionals.length < min) {
    throw new UsageError(`missing ${name}${min > 1 ? ` (at least ${min})` : ''}; usage: linkscent ${spec.usage[0]}`);
  }
  if (max !== undefined && positionals.length > max) {
    const extra = positionals[max];
    throw new UsageError(
      max === 0
        ? `takes no arguments, got "${extra}"`
        : `takes ${max === 1 ? 'one' : `at most ${max}`} ${name}, got an extra "${extra}"`,
    );
  }
  return { help: false, args: new Args(spec, positionals, parsed.values as Record<string, RawValue>) };
}

/** parseArgs' errors, reworded into one line that names the option and what to do. */
function describeParseError(spec: CommandSpec, error: unknown): string {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  const option = /'(-{1,2}[^' ]+)/.exec(message)?.[1] ?? '';
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${option}; valid options: ${optionNames(spec).join(', ')}`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (/does not take an argument/.test(message)) return `${option} takes no value`;
      if (/ambiguous/.test(message)) {
        return `${option} needs a value, and the next word starts with "-" (write ${option}=VALUE to pass it)`;
      }
      return `${option} needs a value`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument: ${message}`;
    default:
      return message.split('\n')[0] ?? 'bad arguments';
  }
}
