/**
 * The command line's two kinds of failure, named for the reaction they need (STYLE.md 9):
 *
 * - `UsageError`: the user typed something we cannot act on (unknown flag, bad value, missing
 *   argument). Exit code 2, nothing was done, fix the command and run it again.
 * - `CliFailure`: the command was well formed but could not be carried out (a missing input
 *   file, a corrupt model, no valid examples). Exit code 1.
 *
 * Either way `main` prints exactly one line, `linkscent <command>: <message>`, on stderr
 * (`platform/one-line.ts`). The message never repeats the prefix; `main` adds it.
 */

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export class CliFailure extends Error {
  override readonly name = 'CliFailure';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Exit codes, stated once: 0 ok, 1 runtime failure, 2 bad usage. */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;
