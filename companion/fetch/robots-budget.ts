/**
 * The work a robots.txt may cost per URL, bounded before the file is parsed.
 *
 * robots-parser checks a URL against every rule of its group, and a rule's cost is its pattern's
 * length, except after a `*`: from there on every pattern character is compared at every
 * position of the path (its `matches`, a set of candidate lengths up to the path's length). A
 * file of 500 KiB of `Disallow: /*a*a*a…` rules, within the byte cap, cost ~3 s per URL and
 * froze the service for 25 s. RFC 9309 §2.5 lets a crawler bound what it reads; this bounds
 * what it matches:
 *
 * - at most MAX_ROBOTS_RULES allow/disallow lines are kept, in file order;
 * - the pattern characters after a rule's first `*` add up to at most WILDCARD_BUDGET over the
 *   file (a trailing `*` costs nothing and counts nothing). A real file's wildcard rules are a few
 *   dozen characters each (`Disallow: /*?sort=`), so this leaves room for a thousand of them.
 *
 * Rules past either bound are dropped, as the bytes past 500 KiB are: the file's first rules,
 * where sites put what matters, stay in force.
 */

/** Allow/disallow lines kept from one robots.txt. */
export const MAX_ROBOTS_RULES = 5_000;
/** Pattern characters after the first `*`, summed over the kept rules. */
export const WILDCARD_BUDGET = 16 * 1024;

const RULE_LINE = /^\s*(?:allow|disallow)\s*:\s*([^#]*)/i;

export interface BoundedRobots {
  /** The file with the rules past the bounds left out (every other line as it was). */
  text: string;
  /** Rules left out. */
  dropped: number;
}

/** The robots.txt text with at most MAX_ROBOTS_RULES rules and WILDCARD_BUDGET of wildcard cost. */
export function boundRobotsRules(text: string): BoundedRobots {
  const kept: string[] = [];
  let rules = 0;
  let wildcard = 0;
  let dropped = 0;
  for (const line of text.split(/\r\n|\r|\n/)) {
    const rule = RULE_LINE.exec(line);
    if (rule) {
      const cost = wildcardCost(rule[1]!.trim());
      if (rules >= MAX_ROBOTS_RULES || wildcard + cost > WILDCARD_BUDGET) {
        dropped++;
        continue;
      }
      rules++;
      wildcard += cost;
    }
    kept.push(line);
  }
  return { text: dropped === 0 ? text : kept.join('\n'), dropped };
}

/** The characters compared at every path position: those after the first `*`, a trailing `*` aside. */
export function wildcardCost(pattern: string): number {
  const body = pattern.replace(/\*+$/, '');
  const star = body.indexOf('*');
  return star < 0 ? 0 : body.length - star - 1;
}
