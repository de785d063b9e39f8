/**
 * Readable names for the model's features in the hover explanation.
 *
 * Feature names carry their namespace (shared/features/types.ts: `a:` anchor word, `c:` context
 * word, `lex:anchor` / `lex:context` lexicon flags, `u:` URL token); the user should read
 * "anchor: 招聘" rather than `a:招聘`. Words come from the page, so callers set the result as
 * text, never as markup.
 */
import type { Translate } from '../ui/i18n.ts';

const WORD_NAMESPACES: Record<string, string> = {
  'a:': 'tipFeatureAnchor',
  'c:': 'tipFeatureContext',
  'u:': 'tipFeatureUrl',
};

const FLAGS: Record<string, string> = {
  'lex:anchor': 'tipFeatureLexAnchor',
  'lex:context': 'tipFeatureLexContext',
};

/** The label of one feature; an unknown namespace is shown as the raw name. */
export function featureLabel(feature: string, t: Translate): string {
  const flag = FLAGS[feature];
  if (flag !== undefined) return t(flag);
  const colon = feature.indexOf(':');
  const key = colon > 0 ? WORD_NAMESPACES[feature.slice(0, colon + 1)] : undefined;
  return key === undefined ? feature : t(key, feature.slice(colon + 1));
}

/** A log-odds weight with its sign: "+1.25", "−0.40" (a true minus sign, read as one glyph). */
export function formatWeight(weight: number): string {
  const magnitude = Math.abs(weight).toFixed(2);
  return weight < 0 ? `\u2212${magnitude}` : `+${magnitude}`;
}
