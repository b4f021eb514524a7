/**
 * A three-node Redis Cluster for the tests: the one REDIS_CLUSTER_URL names, or one started
 * here from `redis-server` (7 or newer) in a temp dir on free loopback ports and stopped after.
 * Starting it from the test, not from `.ci/run`, lets `npm test` cover the Cluster anywhere
 * `redis-server` is installed, with one code path for CI and laptops.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';

/** A running cluster the tests may use; `stop` ends it when it was started here. */
export interface TestCluster {
  /** A seed node's URL, as REDIS_URL would be with REDIS_CLUSTER=1. */
  url: string;
  /** Whether the cluster was started here (and so holds nothing but this run's keys). */
  owned: boolean;
  stop(): Promise<void>;
}

/** Whether a cluster can be had, and if not, why. */
export type ClusterAvailability = { available: true } | { available: false; reason: string };

const NODES = 3;
const SLOTS = 16_384;

/** A cluster is available when REDIS_CLUSTER_URL is set or `redis-server` runs. */
export function clusterAvailability(env: NodeJS.ProcessEnv = process.env): ClusterAvailability {
  if (env.REDIS_CLUSTER_URL) return { available: true };
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8', timeout: 5_000 });
  if (probe.error || probe.status !== 0) {
    return {
      available: false,
      reason: 'redis-server is not on PATH and REDIS_CLUSTER_URL is not set',
    };
  }
  const major = Number(/v=(\d+)\./.exec(probe.stdout)?.[1]);
  if (!(major >= 7)) {
    return { available: false, reason: `redis-server ${probe.stdout.trim()} is older than 7` };
  }
  return { available: true };
}

/** REDIS_CLUSTER_URL's cluster, or a new one ready within `timeoutMs`. */
export async function startTestCluster(
  env: NodeJS.ProcessEnv = process.env,
  timeoutMs = 15_000,
): Promise<TestCluster> {
  if (env.REDIS_CLUSTER_URL) {
    return { url: env.REDIS_CLUSTER_URL, owned: false, stop: async () => undefined };
  }
  const deadline = Date.now() + timeoutMs;
  const dir = await mkdtemp(join(tmpdir(), 'sds-cluster-'));
  // A client port and a cluster bus port per node, all held at once so none repeats.
  const ports = await freePorts(NODES * 2);
  const nodes = Array.from({ length: NODES }, (_, i) => ({
    port: ports[i * 2] ?? 0,
    busPort: ports[i * 2 + 1] ?? 0,
  }));
  const servers: ChildProcess[] = [];
  // A test process that exits without its afterAll (an uncaught error) still ends the servers.
  const killAll = () => {
    for (const server of servers) server.kill('SIGKILL');
  };
  process.once('exit', killAll);
  const stop = async () => {
    process.off('exit', killAll);
    await Promise.all(servers.map((server) => ended(server, 5_000)));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    for (const { port, busPort } of nodes) {
      const flags: Record<string, string> = {
        port: String(port),
        'cluster-port': String(busPort),
        bind: '127.0.0.1',
        'cluster-enabled': 'yes',
        'cluster-config-file': `nodes-${port}.conf`,
        'cluster-node-timeout': '5000',
        dir,
        save: '',
        appendonly: 'no',
        logfile: `redis-${port}.log`,
      };
      const args = Object.entries(flags).flatMap(([name, value]) => [`--${name}`, value]);
      const server = spawn('redis-server', args, { stdio: 'ignore' });
      servers.push(server);
    }
    // Commands wait in the client's queue while it retries, so the first PING answers once the
    // node is up; the deadline bounds the wait.
    const clients = nodes.map(({ port }) => {
      const client = new Redis({
        host: '127.0.0.1',
        port,
        maxRetriesPerRequest: null,
        retryStrategy: () => 50,
      });
      client.on('error', () => undefined);
      return client;
    });
    try {
      for (const client of clients) await beforeDeadline(client.ping(), deadline, 'a node');
      // What `redis-cli --cluster create --cluster-replicas 0` does: a third of the slots each,
      // then every node meets the first.
      const first = nodes[0];
      for (const [i, client] of clients.entries()) {
        const from = Math.floor((SLOTS * i) / NODES);
        const to = Math.floor((SLOTS * (i + 1)) / NODES) - 1;
        await client.call('CLUSTER', 'ADDSLOTSRANGE', String(from), String(to));
        if (i > 0 && first) {
          await client.call(
            'CLUSTER',
            'MEET',
            '127.0.0.1',
            String(first.port),
            String(first.busPort),
          );
        }
      }
      await waitForAgreement(clients, deadline);
    } finally {
      for (const client of clients) client.disconnect();
    }
  } catch (error) {
    const logs = await Promise.all(
      nodes.map(({ port }) =>
        readFile(join(dir, `redis-${port}.log`), 'utf8').catch(() => '(no log)'),
      ),
    );
    await stop();
    throw new Error(
      `the test Redis Cluster did not start: ${(error as Error).message}\n${logs.join('\n')}`,
    );
  }
  return { url: `redis://127.0.0.1:${nodes[0]?.port}`, owned: true, stop };
}

// Every node must know all three and say the cluster is ok, or a client that asks it for the
// slot map may be sent to a node that does not know it owns a slot yet. A new master says ok
// only 2 s after it started, which is most of the time this takes.
async function waitForAgreement(clients: Redis[], deadline: number): Promise<void> {
  for (;;) {
    const infos = await Promise.all(clients.map((c) => c.call('CLUSTER', 'INFO')));
    const agreed = infos.every((info) => {
      const text = String(info);
      return (
        text.includes('cluster_state:ok') &&
        text.includes(`cluster_known_nodes:${NODES}`) &&
        text.includes(`cluster_slots_ok:${SLOTS}`)
      );
    });
    if (agreed) return;
    if (Date.now() > deadline) throw new Error('the nodes did not agree on the cluster in time');
    await sleep(50);
  }
}

async function beforeDeadline<T>(work: Promise<T>, deadline: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`timed out waiting for ${what}`)),
      Math.max(0, deadline - Date.now()),
    );
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const server = createServer();
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      servers.push(server);
    }
    return servers.map((server) => {
      const address = server.address();
      if (address === null || typeof address === 'string') throw new Error('no port');
      return address.port;
    });
  } finally {
    await Promise.all(
      servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
    );
  }
}

// SIGTERM (Redis shuts down cleanly), then SIGKILL if it takes longer than `graceMs`.
async function ended(server: ChildProcess, graceMs: number): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  server.kill('SIGTERM');
  const timer = setTimeout(() => server.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}
