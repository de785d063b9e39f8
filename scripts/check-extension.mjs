/**
 * Checks a built extension directory the way a browser would refuse it: the manifest's shape for
 * its target, and every file reachable from it (manifest entries, HTML script and link tags,
 * relative imports between the emitted modules) present. Returns the problems, one line each;
 * an empty list means loadable. Used by the build script and by test/extension/build.test.ts.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';

/** Every file under `dir`, as POSIX paths relative to it. */
function listFiles(dir, base = dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path, base) : [relative(base, path).split('\\').join('/')];
  });
}

/** The files a manifest names directly. */
function manifestFiles(manifest) {
  const files = [
    manifest.action?.default_popup,
    manifest.options_ui?.page,
    manifest.options_page,
    manifest.background?.service_worker,
    ...(manifest.background?.scripts ?? []),
    ...Object.values(manifest.icons ?? {}),
    ...Object.values(manifest.action?.default_icon ?? {}),
    ...(manifest.content_scripts ?? []).flatMap((script) => [...(script.js ?? []), ...(script.css ?? [])]),
    ...(manifest.web_accessible_resources ?? []).flatMap((war) => war.resources ?? []).filter((r) => !r.includes('*')),
  ];
  return files.filter((file) => typeof file === 'string').map((file) => file.replace(/^\//, ''));
}

/** Relative module specifiers and asset URLs inside one emitted JS file. */
function jsReferences(text) {
  const refs = [];
  const patterns = [
    /(?:import|export)\s*(?:[^'"`;]*?\sfrom\s*)?["'](\.{1,2}\/[^"']+)["']/g,
    /import\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g,
    /new URL\(\s*["'](\.{1,2}\/[^"']+|[^"':]+\.(?:js|wasm|html))["']\s*,\s*import\.meta\.url\s*\)/g,
  ];
  for (const pattern of patterns) for (const match of text.matchAll(pattern)) refs.push(match[1]);
  return refs;
}

/** `src` and `href` of script and stylesheet tags, and whether an inline script is present. */
function htmlReferences(text) {
  const refs = [];
  for (const match of text.matchAll(/<(script|link)\b([^>]*)>/g)) {
    const attr = /\b(?:src|href)\s*=\s*["']([^"']+)["']/.exec(match[2]);
    if (attr) refs.push(attr[1]);
  }
  const inlineScript = [...text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].some(
    ([, attrs, body]) => !/\bsrc\s*=/.test(attrs) && body.trim() !== '',
  );
  return { refs, inlineScript };
}

function messageKeys(manifest) {
  return [...JSON.stringify(manifest).matchAll(/__MSG_(\w+)__/g)].map((m) => m[1]);
}

/**
 * @param {string} outDir  a built extension (dist/chromium or dist/firefox)
 * @param {'chromium' | 'firefox'} target
 * @returns {string[]} problems, empty when loadable
 */
export function checkBuiltExtension(outDir, target) {
  const problems = [];
  const manifestPath = join(outDir, 'manifest.json');
  if (!existsSync(manifestPath)) return [`${manifestPath} is missing`];
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  } catch (error) {
    return [`manifest.json is not JSON: ${error.message}`];
  }
  if (manifest.manifest_version !== 3) problems.push('manifest_version is not 3');
  if (!/^\d+(\.\d+){0,3}$/.test(String(manifest.version))) problems.push(`version "${manifest.version}" is not dotted numbers`);
  if (!manifest.name) problems.push('name is missing');

  const background = manifest.background ?? {};
  if (target === 'chromium') {
    if (typeof background.service_worker !== 'string') problems.push('chromium: background.service_worker is missing');
    if (background.scripts) problems.push('chromium: background.scripts must not be set');
    if (!manifest.permissions?.includes('offscreen')) problems.push('chromium: the offscreen permission is missing');
    if (!existsSync(join(outDir, 'extension/offscreen/offscreen.html'))) problems.push('chromium: extension/offscreen/offscreen.html is missing');
  } else {
    if (!Array.isArray(background.scripts) || background.scripts.length === 0) problems.push('firefox: background.scripts is missing');
    if (background.service_worker) problems.push('firefox: background.service_worker must not be set');
    if (!manifest.browser_specific_settings?.gecko?.id) problems.push('firefox: browser_specific_settings.gecko.id is missing');
    if (manifest.permissions?.includes('offscreen')) problems.push('firefox: the offscreen permission does not exist there');
  }
  const csp = manifest.content_security_policy?.extension_pages ?? '';
  if (!csp.includes("'wasm-unsafe-eval'")) problems.push("extension_pages CSP lacks 'wasm-unsafe-eval' (jieba-wasm needs it)");

  if (manifest.default_locale) {
    const messagesPath = join(outDir, '_locales', manifest.default_locale, 'messages.json');
    if (!existsSync(messagesPath)) problems.push(`_locales/${manifest.default_locale}/messages.json is missing`);
    else {
      const messages = JSON.parse(readFileSync(messagesPath, 'utf8'));
      for (const key of messageKeys(manifest)) if (!messages[key]) problems.push(`message "${key}" is missing from the default locale`);
    }
  }

  for (const file of manifestFiles(manifest)) {
    if (!existsSync(join(outDir, file))) problems.push(`manifest names ${file}, which is missing`);
  }
  for (const file of listFiles(outDir)) {
    const path = join(outDir, file);
    if (file.endsWith('.html')) {
      const { refs, inlineScript } = htmlReferences(readFileSync(path, 'utf8'));
      if (inlineScript) problems.push(`${file} has an inline script, which the extension CSP blocks`);
      for (const ref of refs) {
        if (/^[a-z]+:/i.test(ref)) continue;
        const target = ref.startsWith('/') ? ref.slice(1) : posix.join(posix.dirname(file), ref);
        if (!existsSync(join(outDir, target))) problems.push(`${file} references ${ref}, which is missing`);
      }
    } else if (file.endsWith('.js')) {
      for (const ref of jsReferences(readFileSync(path, 'utf8'))) {
        const clean = ref.replace(/[?#].*$/, '');
        const target = clean.startsWith('/') ? join(outDir, clean) : join(dirname(path), clean);
        if (!existsSync(target)) problems.push(`${file} imports ${ref}, which is missing`);
      }
    }
  }
  return problems;
}
