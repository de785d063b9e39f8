/**
 * The one platform type `shared/model/` names, declared at its smallest so `shared/` compiles
 * without the DOM lib (its tsconfig has none, on purpose). Browsers, workers and Node 18+ all
 * have a global Blob with these members; where the DOM lib is present (the root tsconfig) this
 * interface merges into the DOM's identical declaration.
 *
 * Dexie's own .d.ts names IndexedDB and DOM types too; `skipLibCheck` leaves those unchecked and
 * nothing here depends on them.
 */
interface Blob {
  readonly size: number;
  readonly type: string;
  text(): Promise<string>;
}
