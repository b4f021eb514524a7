/**
 * How fast the emulator answers List tickets with 100,000 tickets in memory.
 *
 * Seeds 100,000 tickets into acme, then times List tickets over real HTTP on loopback (undici,
 * one keep-alive connection, requests one after another) and the same queries in-process
 * against the model alone. Prints one JSON line per case and mode with median, p95 and max in
 * milliseconds. No assertions: the figures are for people to read (target: under 5 ms a page).
 *
 * Run: node bench/emulator-list-tickets.ts [--tickets 100000] [--requests 500]
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { routePath } from '../src/contract/routes.ts';
import { bulkSeedTickets, startEmulator, type TicketQuery } from '../tools/emulator/index.ts';

const { values } = parseArgs({
  options: {
    tickets: { type: 'string', default: '100000' },
    requests: { type: 'string', default: '500' },
  },
});
const TICKETS = Number(values.tickets);
const REQUESTS = Number(values.requests);
const WARMUP = 50;
const STEP_MS = 60_000;

interface Case {
  name: string;
  query: Record<string, string>;
}

function summary(samples: number[]): { median_ms: number; p95_ms: number; max_ms: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (fraction: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0;
  const round = (ms: number) => Math.round(ms * 1000) / 1000;
  return { median_ms: round(at(0.5)), p95_ms: round(at(0.95)), max_ms: round(sorted.at(-1) ?? 0) };
}

function toModelQuery(query: Record<string, string>): TicketQuery {
  return {
    page: Number(query.page ?? '1'),
    pageSize: Number(query.page_size ?? '25'),
    deskId: query.desk_id,
    createdAfterMs: query.created_after === undefined ? undefined : Date.parse(query.created_after),
  };
}

const emulator = await startEmulator({
  seed: 'empty',
  env: {},
  aiDelayMs: 3_600_000,
  ratePerMinute: 1_000_000_000,
  ratePerHour: 1_000_000_000,
});
const dispatcher = new Agent({ connections: 1 });
try {
  const seedStart = performance.now();
  const startMs = Date.now() - TICKETS * STEP_MS;
  bulkSeedTickets(emulator.model, 'acme', TICKETS, { startMs, stepMs: STEP_MS });
  console.log(
    JSON.stringify({
      seed: 'bulk',
      tickets: TICKETS,
      ms: Math.round(performance.now() - seedStart),
    }),
  );

  const middle = new Date(startMs + (TICKETS / 2) * STEP_MS).toISOString();
  const cases: Case[] = [
    { name: 'first page', query: {} },
    { name: 'deep page', query: { page: String(Math.floor(TICKETS / 25 / 2)) } },
    { name: 'desk filter', query: { desk_id: 'it-hardware' } },
    {
      name: 'desk filter, deep page',
      query: { desk_id: 'it-hardware', page: String(Math.floor(TICKETS / 5 / 25 / 2)) },
    },
    { name: 'created_after', query: { created_after: middle } },
    { name: 'created_after and desk', query: { created_after: middle, desk_id: 'hr' } },
  ];

  const path = routePath(emulator.variant, 'listTickets');
  for (const benchCase of cases) {
    const url = `${emulator.url}${path}?${new URLSearchParams(benchCase.query)}`;
    const once = async () => {
      const started = performance.now();
      const response = await request(url, {
        dispatcher,
        headers: { authorization: 'AccessKey sd_acme_rw' },
      });
      await response.body.text();
      if (response.statusCode !== 200)
        throw new Error(`${benchCase.name}: status ${response.statusCode}`);
      return performance.now() - started;
    };
    for (let i = 0; i < WARMUP; i += 1) await once();
    const http: number[] = [];
    for (let i = 0; i < REQUESTS; i += 1) http.push(await once());
    console.log(
      JSON.stringify({ case: benchCase.name, mode: 'http', n: REQUESTS, ...summary(http) }),
    );

    const query = toModelQuery(benchCase.query);
    for (let i = 0; i < WARMUP; i += 1) emulator.model.listTickets('acme', query);
    const inProcess: number[] = [];
    for (let i = 0; i < REQUESTS; i += 1) {
      const started = performance.now();
      emulator.model.listTickets('acme', query);
      inProcess.push(performance.now() - started);
    }
    console.log(
      JSON.stringify({ case: benchCase.name, mode: 'model', n: REQUESTS, ...summary(inProcess) }),
    );
  }
} finally {
  await dispatcher.close();
  await emulator.close();
}
