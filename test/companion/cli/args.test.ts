import { describe, expect, it } from 'vitest';
import { parseCommandArgs, type CommandSpec } from '../../../companion/cli/args.ts';
import { commandHelp } from '../../../companion/cli/help.ts';
import { UsageError } from '../../../companion/cli/errors.ts';

const spec: CommandSpec = {
  name: 'demo',
  summary: 'a demo command',
  usage: ['demo <file> [--window W]'],
  positionals: { name: '<file>', min: 1, max: 1 },
  options: {
    window: { type: 'string', value: 'W', description: 'Window', default: '80' },
    strategy: { type: 'string', value: 'name', description: 'Order', defaultText: 'nb with --model, else bfs' },
    positive: { type: 'string', multiple: true, value: 'pattern', description: 'On topic' },
    resume: { type: 'boolean', description: 'Go on' },
  },
};

function parse(argv: string[]) {
  const parsed = parseCommandArgs(spec, argv);
  if (parsed.help) throw new Error('unexpected --help');
  return parsed.args;
}

describe('parseCommandArgs (node:util parseArgs over specs.ts)', () => {
  it('reads an option not given as its spec default, and has() tells it was not given', () => {
    const args = parse(['a.jsonl']);
    expect(args.positiveInt('window')).toBe(80);
    expect(args.has('window')).toBe(false);
    expect(args.string('strategy')).toBeUndefined();
    expect(args.choice('strategy', ['nb', 'bfs'], 'bfs')).toBe('bfs');
    expect(args.list('positive')).toEqual([]);
    expect(args.flag('resume')).toBe(false);
  });

  it('reads given values, repeatable ones in order, and checks them the same way as defaults', () => {
    const args = parse(['a.jsonl', '--window=120', '--positive', 'a.org', '--positive', 'b.org', '--resume']);
    expect([args.positiveInt('window'), args.has('window'), args.list('positive'), args.flag('resume')]).toEqual([120, true, ['a.org', 'b.org'], true]);
    expect(() => parse(['a.jsonl', '--window', 'wide']).positiveInt('window')).toThrow(new UsageError('--window must be a positive integer, got "wide"'));
  });

  it('reports bad lines in one line naming the option', () => {
    const failure = (argv: string[]) => {
      try {
        parse(argv);
      } catch (error) {
        return (error as Error).message;
      }
      return 'parsed';
    };
    expect(failure(['a', '--bogus'])).toBe('unknown option --bogus; valid options: --window, --strategy, --positive, --resume, --help');
    expect(failure(['a', '--window'])).toBe('--window needs a value');
    expect(failure(['a', '--resume=yes'])).toBe('--resume takes no value');
    expect(failure(['a', '--window', '1', '--window', '2'])).toBe('--window given more than once');
    expect(failure([])).toBe('missing <file>; usage: linkscent demo <file> [--window W]');
    expect(failure(['a', 'b'])).toBe('takes one <file>, got an extra "b"');
  });

  it('shows a default or a default text in the help, and --help wins over a broken line', () => {
    const help = commandHelp(spec);
    expect(help).toMatch(/--window <W>\s+Window \[default: 80\]/);
    expect(help).toMatch(/--strategy <name>\s+Order \[default: nb with --model, else bfs\]/);
    expect(help).toMatch(/--positive <pattern>\s+On topic \(repeatable\)\n/);
    expect(parseCommandArgs(spec, ['--bogus', '--help'])).toEqual({ help: true });
  });
});
