/** Labels from URL patterns (seed 000 §3.2.2): one labeler for the extension and the companion. */
export {
  compileTopicPatterns,
  isSelfLink,
  labelContexts,
  labelsAnything,
  patternLabel,
  TopicPatternError,
  type PatternSide,
  type TopicPatterns,
} from './pattern-labels.ts';
