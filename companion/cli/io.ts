/**
 * Where commands write. Results go to stdout (JSON for `eval`, one summary line otherwise);
 * warnings and progress go to stderr, so that `linkscent eval … > result.json` stays clean.
 */
export interface CliIo {
  /** A result line on stdout. */
  out(line: string): void;
  /** A warning or note on stderr. */
  warn(line: string): void;
  /**
   * A progress line on stderr: rewritten in place on a terminal, skipped otherwise (a log file
   * wants the summary, not a thousand progress lines).
   */
  progress(line: string): void;
}

export function processIo(): CliIo {
  const tty = process.stderr.isTTY === true;
  let dirty = false;
  const clear = () => {
    if (dirty) process.stderr.write('\r\x1b[K');
    dirty = false;
  };
  return {
    out(line) {
      clear();
      process.stdout.write(`${line}\n`);
    },
    warn(line) {
      clear();
      process.stderr.write(`${line}\n`);
    },
    progress(line) {
      if (!tty) return;
      process.stderr.write(`\r\x1b[K${line.slice(0, (process.stderr.columns ?? 100) - 1)}`);
      dirty = true;
    },
  };
}
