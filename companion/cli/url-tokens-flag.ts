/**
 * `--url-tokens` / `--no-url-tokens`, for train and eval --split: URL features are on unless
 * turned off, as for a topic the extension creates (`NEW_TOPIC_DEFAULTS`), so a model from the
 * command line scores links as one taught by browsing would.
 */
import { NEW_TOPIC_DEFAULTS } from '../../shared/model/topic-defaults.ts';
import type { Args } from './args.ts';
import { UsageError } from './errors.ts';

export function urlTokensFlag(args: Args): boolean {
  if (args.flag('url-tokens') && args.flag('no-url-tokens')) throw new UsageError('--url-tokens and --no-url-tokens contradict each other; give one');
  if (args.flag('no-url-tokens')) return false;
  return args.flag('url-tokens') || NEW_TOPIC_DEFAULTS.urlTokens;
}
