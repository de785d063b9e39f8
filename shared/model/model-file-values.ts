/**
 * Values that JSON cannot hold, as a Dexie export writes them: dexie-export-import passes every
 * row through typeson (its structured-cloning preset), which replaces such a value by a JSON one
 * and records the replacement in the row's own `"$types"` object, keyed by the value's path
 * ("value.when", "lexicon"), in the order it walked the row (depth first, a parent before its
 * children). The types a LinkScent row can hold:
 *
 *   arrayNonindexKeys   every array (written as it is; the mark says it has no other keys)
 *   undef               undefined, written 0          nan        NaN, written "NaN"
 *   infinity            Infinity, "Infinity"          negativeInfinity   -Infinity, "-Infinity"
 *   date                a Date, its epoch ms ("NaN" for an invalid one)
 *   #                   a second reference to an object met earlier in the row: "#" + its path
 *
 * `encapsulate` writes exactly these marks and `revive` reads them back, so a row read from a
 * Dexie export and written again gives the same bytes. Anything else (Map, Blob, typed arrays,
 * class instances) is not part of a model file: writing one is a programming error, and a file
 * holding one is refused by name.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The row as a Dexie export writes it: JSON values, with `$types` last when any was replaced. */
export function encapsulate(row: object): Record<string, Json> {
  const types: Record<string, string> = {};
  const seen = new Map<object, string>();
  const walk = (value: unknown, path: string): Json => {
    if (value === undefined) return mark(path, 'undef', 0);
    if (typeof value === 'number') {
      if (Number.isNaN(value)) return mark(path, 'nan', 'NaN');
      if (value === Infinity) return mark(path, 'infinity', 'Infinity');
      if (value === -Infinity) return mark(path, 'negativeInfinity', '-Infinity');
      return value;
    }
    if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
    if (typeof value !== 'object') throw new TypeError(`model file: cannot write a ${typeof value} (at "${path}")`);
    const first = seen.get(value);
    if (first !== undefined) return mark(path, '#', `#${first}`);
    seen.set(value, path);
    if (value instanceof Date) return mark(path, 'date', Number.isNaN(value.getTime()) ? 'NaN' : value.getTime());
    if (Array.isArray(value)) {
      if (Object.keys(value).length !== value.length) throw new TypeError(`model file: cannot write a sparse array (at "${path}")`);
      types[path] = 'arrayNonindexKeys';
      return value.map((item, i) => walk(item, child(path, String(i))));
    }
    const proto = Object.getPrototypeOf(value);
    if ((proto !== Object.prototype && proto !== null) || Object.hasOwn(value, '$types')) {
      throw new TypeError(`model file: cannot write ${Object.prototype.toString.call(value)} (at "${path}")`);
    }
    const out: Record<string, Json> = {};
    for (const [key, item] of Object.entries(value)) out[key] = walk(item, child(path, escapeKey(key)));
    return out;
  };
  const mark = (path: string, type: string, json: Json): Json => {
    types[path] = type;
    return json;
  };
  const out = walk(row, '') as Record<string, Json>;
  if (Object.keys(types).length > 0) out.$types = types;
  return out;
}

/**
 * The row with its `$types` applied and removed (in place). Throws an Error whose message is one
 * phrase naming the path and the problem, for the caller to prefix with the table and row.
 */
export function revive(row: Record<string, unknown>): Record<string, unknown> {
  const types = row.$types;
  if (types === undefined) return row;
  delete row.$types;
  if (typeof types !== 'object' || types === null || Array.isArray(types)) throw new Error('"$types" is not an object of value types');
  for (const [path, type] of Object.entries(types as Record<string, unknown>)) {
    const keys = path.split('.').map(unescapeKey);
    const last = keys.pop()!;
    let parent: unknown = row;
    for (const key of keys) parent = isContainer(parent) ? (parent as Record<string, unknown>)[key] : undefined;
    if (path === '' || !isContainer(parent) || !(last in parent)) throw new Error(`"$types" names "${path}", which the row does not hold`);
    const holder = parent as Record<string, unknown>;
    const value = holder[last];
    const bad = () => new Error(`"$types" says "${path}" is ${String(type)}, but it holds ${JSON.stringify(value)}`);
    switch (type) {
      case 'arrayNonindexKeys':
        if (!Array.isArray(value)) throw bad();
        break;
      case 'undef':
        holder[last] = undefined;
        break;
      case 'nan':
      case 'infinity':
      case 'negativeInfinity':
        holder[last] = { nan: NaN, infinity: Infinity, negativeInfinity: -Infinity }[type];
        break;
      case 'date':
        if (typeof value !== 'number' && value !== 'NaN') throw bad();
        holder[last] = new Date(value === 'NaN' ? NaN : value);
        break;
      case '#': {
        const target = typeof value === 'string' && value.startsWith('#') ? find(row, value.slice(1)) : undefined;
        if (typeof target !== 'object' || target === null) throw bad();
        holder[last] = target;
        break;
      }
      default:
        throw new Error(`"${path}" holds a value of type ${JSON.stringify(type)}, which a model file cannot carry`);
    }
  }
  return row;
}

const isContainer = (value: unknown): value is object => typeof value === 'object' && value !== null;

function find(root: unknown, path: string): unknown {
  if (path === '') return undefined; // a reference to the row itself: a cycle, never written
  let value = root;
  for (const key of path.split('.').map(unescapeKey)) value = isContainer(value) ? (value as Record<string, unknown>)[key] : undefined;
  return value;
}

const child = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);
/** typeson's key path escapes: '~' → '~0', '.' → '~1'. */
const escapeKey = (key: string) => key.replaceAll('~', '~0').replaceAll('.', '~1');
const unescapeKey = (key: string) => key.replaceAll('~1', '.').replaceAll('~0', '~');
