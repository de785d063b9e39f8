/**
 * A bench's HTTP server on a loopback address and a free port: its origin, and a close that cuts
 * the connections still open (a crawler's keep-alive sockets, a request held on purpose) instead
 * of waiting for them.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

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
