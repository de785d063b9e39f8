/**
 * A bench's HTTP server on a loopback address and a free port: its origin, and a close that cuts
 * the connections still open (a crawler's keep-alive sockets, a request held on purpose) instead
 * of waiting for them. And a free port for a child process that must be told its own.
 */
import type { Server } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';

export interface Listening {
  origin: string;
  close(): Promise<void>;
}

export async function listenOnLoopback(server: Server, address = '127.0.0.1'): Promise<Listening> {
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(0, address, () => resolveListen());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${address}:${port}`,
    close: () =>
      new Promise<void>((resolveClose) => {
        server.closeAllConnections();
        server.close(() => resolveClose());
      }),
  };
}

/** A loopback port free now (bound, then released): for a child process that must be told its port. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
