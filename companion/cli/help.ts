/**
 * The help texts, generated from the option specs (specs.ts) so they never drift from the parser:
 * `linkscent --help` lists the commands, `linkscent <command> --help` a command's options with
 * their defaults.
 */
import type { CommandSpec } from './args.ts';
import { COMMANDS } from './specs.ts';

/** `linkscent --help`: every command with its summary. */
export function topHelp(version: string): string {
  const width = Math.max(...COMMANDS.map((spec) => spec.name.length)) + 2;
  return [
    `linkscent ${version}: focused crawling guided by a Naive Bayes link-scent model`,
    '',
    'Usage: linkscent <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((spec) => `  ${spec.name.padEnd(width)}${spec.summary}`),
    '',
    'Run linkscent <command> --help for its options and their defaults.',
    'Exit codes: 0 done, 1 the command failed, 2 bad usage, 130 stopped by Ctrl-C (resumable).',
    '',
  ].join('\n');
}

/** `linkscent <command> --help`. */
export function commandHelp(spec: CommandSpec): string {
  const lines = [`linkscent ${spec.name}: ${spec.summary}`, '', 'Usage:'];
  for (const usage of spec.usage) lines.push(`  linkscent ${usage}`);
  const rows = Object.entries(spec.options).map(([name, option]) => {
    const head = `--${name}${option.type === 'string' ? ` <${option.value ?? 'value'}>` : ''}`;
    const shown = option.default ?? option.defaultText;
    const tail = `${option.description}${option.multiple ? ' (repeatable)' : ''}${shown !== undefined ? ` [default: ${shown}]` : ''}`;
    return [head, tail] as const;
  });
  rows.push(['--help', 'Show this help']);
  const width = Math.max(...rows.map(([head]) => head.length)) + 2;
  lines.push('', 'Options:');
  for (const [head, tail] of rows) lines.push(`  ${head.padEnd(width)}${tail}`);
  for (const note of spec.notes ?? []) lines.push('', ...note.split('\n'));
  return `${lines.join('\n')}\n`;
}
