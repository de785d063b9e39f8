/**
 * `--positive` / `--negative` as a topic's compiled URL patterns, for `collect` and `train`. The
 * labelling rules live in `shared/labels/`; this only names the flag of a bad pattern, so the
 * user reads `--positive "…": URL pattern is empty` rather than a bare compiler message.
 */
import { compileTopicPatterns, TopicPatternError, type TopicPatterns } from '../../shared/labels/pattern-labels.ts';
import { UsageError } from './errors.ts';

/** Compiles the flags' patterns; a bad one is a `UsageError` naming its flag, before any work. */
export function patternsFromFlags(positive: readonly string[], negative: readonly string[]): TopicPatterns {
  try {
    return compileTopicPatterns({ positive: [...positive], negative: [...negative] });
  } catch (error) {
    if (error instanceof TopicPatternError) throw new UsageError(`--${error.side} "${error.pattern}": ${error.message}`);
    throw error;
  }
}
