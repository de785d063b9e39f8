/**
 * LinkScent's command line as a child process, the way users run it, with the loopback guard
 * preloaded so the documents' links to real sites never leave the machine
 * (`loopback-guard.mjs`), and its peak RSS polled from /proc.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = join(ROOT, 'companion', 'bin', 'linkscent.mjs');
const GUARD = join(ROOT, 'bench', 'support', 'loopback-guard.mjs');

export interface ChildResult {
  code: number | null;
  stdout: string;
  stderr: string;
  wallMs: number;
  /** Peak resident set size of the child, bytes (VmHWM). */
  peakRss: number;
}

export interface StartedChild {
  child: ChildProcess;
  /** Settles when the child has exited and its output is read; `exitedAt` is on `performance.now()`'s clock. */
  done: Promise<ChildResult & { exitedAt: number }>;
}

/**
 * Starts `node --import loopback-guard <args>`, polling its peak RSS; with `--import tsx` first
 * when the script is TypeScript (a bench's helper), not for the `linkscent` bin, which loads what
 * it needs itself, as it does for a user. The child is node itself (no shell between), so a
 * signal sent to it is the one the program gets.
 */
export function startNode(args: string[], env: Record<string, string> = {}): StartedChild {
  const started = process.hrtime.bigint();
  const loader = args[0]?.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...loader, '--import', GUARD, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const done = new Promise<ChildResult & { exitedAt: number }>((resolvePromise, reject) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout!.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr!.on('data', (chunk: Buffer) => err.push(chunk));
    let peakRss = 0;
    let exitedAt = Number.NaN;
    const poll = () => {
      try {
        const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (match) peakRss = Math.max(peakRss, Number(match[1]) * 1024);
      } catch {
        // gone already, or no /proc: the last reading stands
      }
    };
    const timer = setInterval(poll, 50);
    child.on('error', (error) => {
      clearInterval(timer);
      reject(error);
    });
    // 'exit' is when the process ended; 'close' waits for its pipes too, which is not its doing.
    child.on('exit', () => {
      exitedAt = performance.now();
    });
    child.on('close', (code) => {
      clearInterval(timer);
      resolvePromise({
        code,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        wallMs: Number(process.hrtime.bigint() - started) / 1e6,
        peakRss,
        exitedAt,
      });
    });
  });
  return { child, done };
}

/** Runs `node [--import tsx] --import loopback-guard <args>` to its end (`startNode`). */
export function runNode(args: string[], env: Record<string, string> = {}): Promise<ChildResult> {
  return startNode(args, env).done;
}

/** `linkscent <args>` started, not awaited (`startNode`). */
export function startLinkscent(args: string[], env: Record<string, string> = {}): StartedChild {
  return startNode([CLI, ...args], env);
}

/** `linkscent <args>`; throws with the end of its stderr when it fails. */
export async function linkscent(args: string[], env: Record<string, string> = {}): Promise<ChildResult> {
  const result = await runNode([CLI, ...args], env);
  if (result.code !== 0) {
    throw new Error(`linkscent ${args[0]} exited ${result.code}:\n${result.stderr.trim().split('\n').slice(-5).join('\n')}`);
  }
  return result;
}
