/**
 * Starts Debian's Firefox ESR headless with WebDriver BiDi on a loopback port, in a fresh profile
 * whose user.js fixes the extension's moz-extension:// UUID (so its pages' URLs are known before
 * it is installed) and copies the Browser Console (the extension's event page and its own pages
 * included, which BiDi's log events do not reach) to Firefox's stdout, kept here for a failing
 * test to print. `--remote-allow-system-access` lets BiDi navigate to moz-extension:// pages.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface FirefoxOptions {
  executable: string;
  /** gecko id → moz-extension UUID (`extensions.webextensions.uuids`). */
  extensionUuids: Record<string, string>;
  /** More preferences for user.js (they win over the defaults here). */
  prefs?: Record<string, string | boolean | number>;
  /** How long to wait for the BiDi server to listen. Default 60 s. */
  startTimeoutMs?: number;
}

export interface Firefox {
  /** ws://127.0.0.1:<port>/session */
  bidiUrl: string;
  profile: string;
  /** Firefox's stdout and stderr so far (the console copy, crash reports, remote agent log). */
  output(): string;
  close(): Promise<void>;
}

/** Preferences for a quiet, loopback-only test profile (the remote agent adds its own). */
function userJs(extensionUuids: Record<string, string>, extra: Record<string, string | boolean | number> = {}): string {
  const prefs: Record<string, string | boolean | number> = {
    'extensions.webextensions.uuids': JSON.stringify(extensionUuids),
    // The Browser Console (event page, extension pages, web pages) on stdout.
    'devtools.console.stdout.chrome': true,
    'devtools.console.stdout.content': true,
    'browser.dom.window.dump.enabled': true,
    'browser.shell.checkDefaultBrowser': false,
    'browser.startup.homepage_override.mstone': 'ignore',
    'browser.aboutwelcome.enabled': false,
    'datareporting.policy.dataSubmissionEnabled': false,
    'toolkit.telemetry.enabled': false,
    'app.update.disabledForTesting': true,
    'extensions.update.enabled': false,
    'extensions.getAddons.cache.enabled': false,
    'browser.safebrowsing.malware.enabled': false,
    'browser.safebrowsing.phishing.enabled': false,
    'network.captive-portal-service.enabled': false,
    'network.connectivity-service.enabled': false,
    ...extra,
  };
  return Object.entries(prefs)
    .map(([name, value]) => `user_pref(${JSON.stringify(name)}, ${JSON.stringify(value)});`)
    .join('\n');
}

export async function launchFirefox(options: FirefoxOptions): Promise<Firefox> {
  const profile = mkdtempSync(join(tmpdir(), 'linkscent-firefox-'));
  writeFileSync(join(profile, 'user.js'), `${userJs(options.extensionUuids, options.prefs)}\n`);
  const child: ChildProcess = spawn(
    options.executable,
    // BiDi navigates only to http(s), file, blob and about:blank unless system access is allowed;
    // the extension's own pages are moz-extension:// URLs.
    ['--headless', '--no-remote', '--remote-debugging-port=0', '--remote-allow-system-access', '--profile', profile, 'about:blank'],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, MOZ_CRASHREPORTER_DISABLE: '1' } },
  );
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const bidiUrl = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`Firefox did not start WebDriver BiDi within ${options.startTimeoutMs ?? 60_000} ms:\n${output}`)),
      options.startTimeoutMs ?? 60_000,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /WebDriver BiDi listening on (ws:\/\/[^\s]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(`${match[1]!.replace(/\/$/, '')}/session`);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`Firefox exited (${code ?? signal}) before BiDi listened:\n${output}`));
    });
  });
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(killer);
    }
    rmSync(profile, { recursive: true, force: true });
  };
  try {
    return { bidiUrl: await bidiUrl, profile, output: () => output, close };
  } catch (error) {
    await close();
    throw error;
  }
}
