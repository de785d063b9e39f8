/**
 * Where the service keeps its state, which port it listens on, and the pairing (docs/service-api.md
 * "Where it listens"). `service.json` holds the pairing token and the paired extension origin;
 * it is a secret, so it is mode 0600 inside a 0700 home, and rewritten atomically.
 *
 * One service per home: the home is locked (`service.lock`, `platform/directory-lock.ts`) before
 * anything in it is read or written, and stays locked while the service runs. Two services on
 * one home (another port, `--port 0`) would each resume the same running crawls and write the same
 * stores; the second one fails at start in one line naming the first one's pid instead.
 */
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SERVICE_PORT } from '../../shared/service-api/types.ts';
import { writeJsonAtomic } from '../platform/atomic-file.ts';
import { lockDirectory, type DirectoryLock } from '../platform/directory-lock.ts';
import { ensureDirectory } from '../platform/output-paths.ts';

/** The one default port, from the wire contract both the service and the extension read. */
export const DEFAULT_PORT = DEFAULT_SERVICE_PORT;
export const SERVICE_FILE = 'service.json';
/** The lock file of a home in use (see the file header). */
export const SERVICE_LOCK_FILE = 'service.lock';

/** `LINKSCENT_HOME`, else `$XDG_CONFIG_HOME/linkscent`, else `~/.config/linkscent`. */
export function resolveHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env.LINKSCENT_HOME) return env.LINKSCENT_HOME;
  if (env.XDG_CONFIG_HOME) return join(env.XDG_CONFIG_HOME, 'linkscent');
  return join(homedir(), '.config', 'linkscent');
}

/** The port: the option, else `LINKSCENT_PORT`, else 7431. Throws naming a bad value. */
export function resolvePort(option: number | undefined, env: NodeJS.ProcessEnv = process.env): number {
  if (option !== undefined) {
    if (!Number.isInteger(option) || option < 0 || option > 65535) throw new Error(`port must be a whole number from 0 to 65535, got ${option}`);
    return option;
  }
  const fromEnv = env.LINKSCENT_PORT;
  if (fromEnv === undefined || fromEnv === '') return DEFAULT_PORT;
  const port = Number(fromEnv);
  if (!/^\d+$/.test(fromEnv) || port > 65535) throw new Error(`LINKSCENT_PORT must be a port number from 0 to 65535, got "${fromEnv}"`);
  return port;
}

/** The contents of `service.json`. */
export interface Pairing {
  /** 32 random bytes, base64url. */
  token: string;
  /** The extension origin pinned by the first authorised request from one; null until then. */
  origin: string | null;
}

/** The home directory's pairing, kept across restarts. */
export class ServiceConfig {
  readonly home: string;
  #pairing: Pairing;
  readonly #lock: DirectoryLock;

  private constructor(home: string, pairing: Pairing, lock: DirectoryLock) {
    this.home = home;
    this.#pairing = pairing;
    this.#lock = lock;
  }

  /**
   * Opens (creating) the home directory and its pairing. A missing or unreadable `service.json`,
   * or `resetPairing`, makes a new token and forgets the origin.
   */
  static open(home: string, options: { resetPairing?: boolean; log?: (line: string) => void } = {}): ServiceConfig {
    ensureDirectory(home, 0o700);
    const lock = lockDirectory(home, SERVICE_LOCK_FILE, `the service home ${home} (another linkscent serve?)`);
    try {
      ensureDirectory(join(home, 'crawls'));
      ensureDirectory(join(home, 'models'));
      const path = join(home, SERVICE_FILE);
      let pairing: Pairing | undefined;
      if (!options.resetPairing && existsSync(path)) {
        pairing = parsePairing(path);
        if (!pairing) options.log?.(`serve: ${path} is damaged; made a new pairing token`);
      }
      const config = new ServiceConfig(home, pairing ?? { token: newToken(), origin: null }, lock);
      if (!pairing) config.#save();
      else chmodSync(path, 0o600); // an older file with looser permissions is tightened
      return config;
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  /** Frees the home for the next service. */
  close(): void {
    this.#lock.release();
  }

  get token(): string {
    return this.#pairing.token;
  }

  get pairedOrigin(): string | null {
    return this.#pairing.origin;
  }

  pin(origin: string): void {
    this.#pairing = { ...this.#pairing, origin };
    this.#save();
  }

  get crawlsDir(): string {
    return join(this.home, 'crawls');
  }

  get modelsDir(): string {
    return join(this.home, 'models');
  }

  #save(): void {
    writeJsonAtomic(join(this.home, SERVICE_FILE), this.#pairing, 0o600);
  }
}

function newToken(): string {
  return randomBytes(32).toString('base64url');
}

function parsePairing(path: string): Pairing | undefined {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as Partial<Pairing>;
    if (typeof value.token !== 'string' || value.token.length < 32) return undefined;
    const origin = typeof value.origin === 'string' ? value.origin : null;
    return { token: value.token, origin };
  } catch {
    return undefined;
  }
}
