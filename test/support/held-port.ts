/** A port this test holds on every address, so a command told to listen on it finds it taken. */
import { once } from 'node:events';
import { createServer, type Server } from 'node:net';

/** A port held by another listener until `release` is called. */
export interface HeldPort {
  port: number;
  release(): Promise<void>;
}

/** Listens on a free port on every address (IPv4 and IPv6) and keeps it. */
export async function holdPort(): Promise<HeldPort> {
  const server: Server = createServer();
  server.listen(0);
  await once(server, 'listening');
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('no port held');
  return {
    port: address.port,
    release: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
