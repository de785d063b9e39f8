/**
 * A page batch's verdicts as the scoring Worker sends them to the background: a few typed arrays
 * and one array of feature names instead of one object per verdict and one per explained feature.
 * The background unpacks them into the very `LinkVerdict`s the Worker built (`unpackVerdicts`),
 * so nothing past `worker-host.ts` sees the difference.
 *
 * Why (issue 14's Chromium profile of the Worker, 5,000 new contexts in calls of 100): comlink's
 * reply, the structured clone of 5,000 verdict objects and about 12,500 explanation objects, was
 * 25 ms of the Worker's 201 ms busy time, and the background pays the clone's other half. A
 * structured clone writes and reads every object's keys anew; a typed array is one copy of its
 * bytes. In Node, the hop of 5,000 such verdicts (clone out and in) took 11.6–14.0 ms as objects
 * and 2.4–4.6 ms packed, cloned and unpacked. In Chromium the Worker's own side of the reply
 * (packing included) was still 24 ms of 170 ms in its profile, and the extension bench's probe
 * rate did not move beyond its noise (three A/B pairs at load 3–4).
 */
import type { Label } from '../../shared/model/types.ts';
import type { Level, LinkVerdict } from './page-links.ts';

/** `kinds[i]`: which of `self` / `mark` / `template` verdict `i` carries (at most one). */
const PLAIN = 0;
const SELF = 1;
const MARK_OFF = 2;
const MARK_ON = 3;
const TEMPLATE = 4;

export interface PackedVerdicts {
  /** How many verdicts. */
  length: number;
  refs: Float64Array;
  p: Float64Array;
  levels: Uint8Array;
  /** PLAIN, SELF, MARK_OFF, MARK_ON or TEMPLATE (see above). */
  kinds: Uint8Array;
  /** Verdict `i`'s explanation is `features` / `weights` from `topEnds[i - 1]` (0 for i = 0) to `topEnds[i]`. */
  topEnds: Uint32Array;
  features: string[];
  weights: Float64Array;
}

function kindOf(verdict: LinkVerdict): number {
  if (verdict.self) return SELF;
  if (verdict.mark !== undefined) return verdict.mark === 1 ? MARK_ON : MARK_OFF;
  return verdict.template ? TEMPLATE : PLAIN;
}

export function packVerdicts(verdicts: readonly LinkVerdict[]): PackedVerdicts {
  const n = verdicts.length;
  let explained = 0;
  for (const verdict of verdicts) explained += verdict.top.length;
  const packed: PackedVerdicts = {
    length: n,
    refs: new Float64Array(n),
    p: new Float64Array(n),
    levels: new Uint8Array(n),
    kinds: new Uint8Array(n),
    topEnds: new Uint32Array(n),
    features: new Array<string>(explained),
    weights: new Float64Array(explained),
  };
  let k = 0;
  for (let i = 0; i < n; i++) {
    const verdict = verdicts[i]!;
    packed.refs[i] = verdict.ref;
    packed.p[i] = verdict.p;
    packed.levels[i] = verdict.level;
    packed.kinds[i] = kindOf(verdict);
    for (const { feature, weight } of verdict.top) {
      packed.features[k] = feature;
      packed.weights[k] = weight;
      k++;
    }
    packed.topEnds[i] = k;
  }
  return packed;
}

/** The verdicts `packVerdicts` was given: the same fields, values and key order. */
export function unpackVerdicts(packed: PackedVerdicts): LinkVerdict[] {
  const { refs, p, levels, kinds, topEnds, features, weights } = packed;
  const verdicts = new Array<LinkVerdict>(packed.length);
  let k = 0;
  for (let i = 0; i < packed.length; i++) {
    const end = topEnds[i]!;
    const top = new Array<{ feature: string; weight: number }>(end - k);
    for (let j = 0; k < end; j++, k++) top[j] = { feature: features[k]!, weight: weights[k]! };
    const verdict: LinkVerdict = { ref: refs[i]!, p: p[i]!, level: levels[i] as Level, top };
    const kind = kinds[i];
    if (kind === SELF) verdict.self = true;
    else if (kind === MARK_ON || kind === MARK_OFF) verdict.mark = (kind === MARK_ON ? 1 : 0) as Label;
    else if (kind === TEMPLATE) verdict.template = true;
    verdicts[i] = verdict;
  }
  return verdicts;
}
