/**
 * Keeps a benchmark process on loopback: every TCP connection to a host other than
 * 127.0.0.0/8, ::1 or `localhost` fails at once with ECONNREFUSED, before any DNS lookup.
 *
 * The Debian documents link out to thousands of real sites (wikipedia, packages.debian.org,
 * bugs.python.org, …). A crawl of the local web meets those links, and the benchmarks must not
 * send a single packet for them. LinkScent's crawler then treats the origin as unreachable
 * (robots.txt cannot be fetched: disallowed for now, recorded as `robots-denied`, not counted
 * as a fetched page); crawlee's runs filter those links out before enqueueing anyway.
 *
 * Loaded before the program: `node --import ./bench/support/loopback-guard.mjs …`. Plain
 * JavaScript, so a child that runs no TypeScript (the `linkscent` bin running its bundle) is
 * measured without tsx's loader in it.
 * It patches `net.Socket.prototype.connect`, which every Node HTTP client (undici, got, http)
 * goes through, and `dns.lookup`, for anything that resolves names on its own.
 */
import dns from 'node:dns';
import net from 'node:net';

const LOOPBACK_V4 = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/** @param {string | undefined | null} host */
export function isLoopbackHost(host) {
  if (host === undefined || host === null || host === '') return true; // Node's default: localhost
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return LOOPBACK_V4.test(h) || h === '::1' || h === 'localhost' || h === '::ffff:127.0.0.1';
}

/** @param {string} host */
function refused(host) {
  const error = new Error(`loopback-guard: connection to ${host} refused (benchmarks stay on 127.0.0.x)`);
  error.code = 'ECONNREFUSED';
  error.syscall = 'connect';
  return error;
}

/**
 * The host a `socket.connect(...)` call names, whichever of its call forms is used.
 * @param {unknown[]} args
 */
function hostOfConnectArgs(args) {
  let first = args[0];
  // net.connect() passes its normalised [options, callback] pair as one array argument.
  if (Array.isArray(first)) first = first[0];
  if (first !== null && typeof first === 'object') {
    const options = first;
    if (typeof options.path === 'string') return 'localhost'; // a Unix socket or named pipe
    return options.host;
  }
  if (typeof first === 'string' && !/^\d+$/.test(first)) return 'localhost'; // a socket path
  return typeof args[1] === 'string' ? args[1] : undefined;
}

const originalConnect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function guardedConnect(...args) {
  const host = hostOfConnectArgs(args);
  if (!isLoopbackHost(host)) {
    process.nextTick(() => this.destroy(refused(String(host))));
    return this;
  }
  return originalConnect.apply(this, args);
};

const originalLookup = dns.lookup;
dns.lookup = function guardedLookup(hostname, ...rest) {
  if (!isLoopbackHost(hostname)) {
    const callback = rest[rest.length - 1];
    if (typeof callback === 'function') {
      const error = new Error(`loopback-guard: lookup of ${hostname} refused`);
      error.code = 'ENOTFOUND';
      process.nextTick(() => callback(error));
      return;
    }
  }
  originalLookup.call(dns, hostname, ...rest);
};
