/**
 * The package's root directory, for the files the companion reads at run time (package.json,
 * the dashboard's assets, the parse thread's source).
 *
 * Not each file's own `import.meta.url`: the command line may run as one bundle
 * (`scripts/build-cli.mjs` writes it to `dist/companion/`), where every module's
 * `import.meta.url` is the bundle's. This file and the bundle lie two directories below the
 * root, so `../../` from either is the root.
 */
export const PACKAGE_ROOT = new URL('../../', import.meta.url);

/** A file of the package, by its path from the root (`companion/service/dashboard/app.js`). */
export function packageFile(path: string): URL {
  return new URL(path, PACKAGE_ROOT);
}
