/**
 * A property worked out the first time it is read: for what a page carries that most readers
 * never look at (its decoded text, `fetch/html-bytes.ts`; its segments, `parse/packed-page.ts`).
 * Written (by a hook, say), it becomes an ordinary property holding what was written.
 */
export function defineLazy<T extends object, K extends keyof T>(target: T, key: K, read: () => T[K]): void {
  Object.defineProperty(target, key, {
    get: read,
    set: (value: T[K]) => Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true }),
    enumerable: true,
    configurable: true,
  });
}
