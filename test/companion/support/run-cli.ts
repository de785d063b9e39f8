/**
 * Runs the real `linkscent` bin (`node companion/bin/linkscent.mjs …`) as a child process, the
 * way a user or another tool does. Asynchronous on purpose: the loopback test site runs in the
 * test's own process, and a synchronous spawn would block the very server the child crawls.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

export const REPO_ROOT = resolve(import.meta.dirname, '../../..');
export const BIN = resolve(REPO_ROOT, 'companion/bin/linkscent.mjs');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stderr's non-empty lines. */
  errorLines: string[];
}

export interface RunningCli {
  child: ChildProcess;
  /** Settles when the process has exited and its output is read. */
  done: Promise<CliResult>;
}

/** Starts the bin and returns at once, for tests that signal or kill it mid-run. */
export interface CliOptions {
  cwd?: string;
  /** SIGKILL after this long (a guard, not an assertion). Default 50 000. */
  timeoutMs?: number;
  /** Added to the environment (LINKSCENT_HOME, …). */
  env?: Record<string, string>;
}

export function startCli(args: string[], options: CliOptions = {}): RunningCli {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? REPO_ROOT,
    env: { ...process.env, LINKSCENT_DEBUG: '', NO_COLOR: '1', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const done = new Promise<CliResult>((resolvePromise, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 50_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr, errorLines: stderr.split('\n').filter((line) => line.trim() !== '') });
    });
  });
  return { child, done };
}

export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  return startCli(args, options).done;
}
