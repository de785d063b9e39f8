/**
 * The topic editor form: a `Topic` into the form's fields and the fields back into a
 * `TopicInput` for 'topics/save'.
 *
 * Lists (lexicon, on-topic and off-topic patterns) are one entry per line. Numbers are checked
 * here only so the user gets the message next to the form before a round trip; the background
 * validates again, and its Failure line is shown the same way.
 */
import type { FeatureGroup } from '../../shared/features/types.ts';
import { NB_FORMS } from '../../shared/model/nb-counts.ts';
import type { NbForm, ThresholdMode, Topic } from '../../shared/model/types.ts';
import type { TopicInput } from '../messages/settings.ts';
import { parseLines } from '../ui/dom.ts';
import { NEW_TOPIC_DEFAULTS, TOPIC_DEFAULTS } from '../storage/validate.ts';
import type { Translate } from '../ui/i18n.ts';

/** Defaults of a new topic, as documented on `TopicInput`. */

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

function field(form: HTMLFormElement, name: string): Field {
  const element = form.elements.namedItem(name);
  if (
    !(element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement)
  ) {
    throw new Error(`topic form is missing the field '${name}'`);
  }
  return element;
}

/** Shows `topic` in the form, or an empty form with the defaults for a new topic. */
export function fillTopicForm(form: HTMLFormElement, topic: Topic | null): void {
  field(form, 'id').value = topic?.id ?? '';
  field(form, 'name').value = topic?.name ?? '';
  field(form, 'lexicon').value = (topic?.lexicon ?? []).join('\n');
  field(form, 'positive').value = (topic?.positive ?? []).join('\n');
  field(form, 'negative').value = (topic?.negative ?? []).join('\n');
  field(form, 'threshold').value = String(topic?.threshold ?? TOPIC_DEFAULTS.threshold);
  field(form, 'window').value = String(topic?.window ?? TOPIC_DEFAULTS.window);
  field(form, 'featureGroup').value = String(topic?.featureGroup ?? TOPIC_DEFAULTS.featureGroup);
  field(form, 'form').value = topic?.form ?? TOPIC_DEFAULTS.form;
  // A new topic gets URL tokens and a calibrated threshold; an old one shows what it has.
  field(form, 'thresholdMode').value = topic === null ? NEW_TOPIC_DEFAULTS.thresholdMode : (topic.thresholdMode ?? 'fixed');
  field(form, 'targetPrecision').value = String(topic?.targetPrecision ?? DEFAULT_TARGET_PRECISION);
  field(form, 'urlTokens').value = String(topic === null ? NEW_TOPIC_DEFAULTS.urlTokens : topic.urlTokens === true);
}

/** What the target precision field shows until the user picks one. */
export const DEFAULT_TARGET_PRECISION = 0.8;

/** The form as a `TopicInput`, or the one-line reason it cannot be saved. */
export function readTopicForm(form: HTMLFormElement, t: Translate): { topic: TopicInput } | { error: string } {
  const name = field(form, 'name').value.trim();
  if (name === '') return { error: t('optionsErrorName') };

  const threshold = Number(field(form, 'threshold').value);
  if (field(form, 'threshold').value.trim() === '' || !Number.isFinite(threshold) || threshold < 0 || threshold > 1) {
    return { error: t('optionsErrorThreshold') };
  }
  const window = Number(field(form, 'window').value);
  if (!Number.isInteger(window) || window < 1) return { error: t('optionsErrorWindow') };

  const modeValue = field(form, 'thresholdMode').value;
  const thresholdMode: ThresholdMode = modeValue === 'precision' || modeValue === 'fixed' ? modeValue : 'f1';
  const targetPrecision = Number(field(form, 'targetPrecision').value);
  if (thresholdMode === 'precision' && !(targetPrecision > 0 && targetPrecision < 1)) return { error: t('optionsErrorTargetPrecision') };
  const featureGroup: FeatureGroup = field(form, 'featureGroup').value === '1' ? 1 : 2;
  const formValue = field(form, 'form').value;
  const nbForm: NbForm = NB_FORMS.includes(formValue as NbForm) ? (formValue as NbForm) : TOPIC_DEFAULTS.form;
  const id = field(form, 'id').value;
  return {
    topic: {
      ...(id === '' ? {} : { id }),
      name,
      lexicon: parseLines(field(form, 'lexicon').value),
      positive: parseLines(field(form, 'positive').value),
      negative: parseLines(field(form, 'negative').value),
      threshold,
      featureGroup,
      form: nbForm,
      window,
      urlTokens: field(form, 'urlTokens').value === 'true',
      thresholdMode,
      ...(thresholdMode === 'precision' ? { targetPrecision } : {}),
    },
  };
}
