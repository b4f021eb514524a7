/**
 * Runs `bench/mirror.ts` for several sizes and strategies over seeds 1–3 (one run each) and
 * prints the README's table: each figure as the median with the range over the seeds. The raw
 * JSON lines go to stderr, each after the command that produced it.
 *
 * Run: node bench/mirror/table.ts [--jobs 1] [--seeds 1,2,3] [--only push,filter]
 *   [--set main|other|scale|sla] [--timeout-s 600]
 *
 * `--set sla`: triage with service-level clocks (`--triage --sla`) at 500 / 50 and
 * 1,200 / 80 + 3,000 unlinked, each run with the clock watch and without it (`--no-clocks`, the
 * same traffic), and prints the warnings' figures and the requests an hour the clocks added.
 *
 * A run that has not ended after `--timeout-s` is stopped and counted as failed (its row then
 * says how many seeds ran), so one run that hangs cannot hang the table.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    jobs: { type: 'string', default: '1' },
    seeds: { type: 'string', default: '1,2,3' },
    only: { type: 'string' },
    set: { type: 'string', default: 'main' },
    'timeout-s': { type: 'string', default: '600' },
  },
});

interface Row {
  label: string;
  size: string;
  args: string[];
}

const SMALL = ['--tickets', '500', '--hot', '50'];
const LARGE = ['--tickets', '2000', '--hot', '150', '--unlinked', '5000', '--desks', '4'];
const PUSH = ['--strategy', 'push', '--webhook-drop', '0.02'];
const ALL = ['push', 'filter', 'sweep', 'adaptive'];
const rowsOf = (size: string, base: string[], strategies: string[]): Row[] =>
  strategies.map((strategy) => ({
    label: strategy === 'push' ? 'push, 2% dropped' : strategy,
    size,
    args: [...base, ...(strategy === 'push' ? PUSH : ['--strategy', strategy])],
  }));
// Clocks on and off at one size and strategy: the same traffic, so the requests compare.
const slaRowsOf = (size: string, base: string[]): Row[] =>
  rowsOf(size, [...base, '--sla'], ['push', 'filter']).flatMap((row) => [
    { ...row, label: `${row.label}, clocks` },
    { ...row, label: `${row.label}, no clocks`, args: [...row.args, '--no-clocks'] },
  ]);
const SETS: Record<string, Row[]> = {
  main: [
    ...rowsOf('500 / 50', SMALL, ['push', 'filter', 'sweep', 'adaptive', 'fixed']),
    ...rowsOf('2,000 / 150 + 5,000 unlinked, 4 desks', LARGE, ALL),
  ],
  other: [
    ...rowsOf('200 / 20', ['--tickets', '200', '--hot', '20'], ALL),
    ...rowsOf('1,000 / 100', ['--tickets', '1000', '--hot', '100'], ALL),
    ...rowsOf(
      '2,000 / 50 + 5,000 unlinked, 4 desks',
      ['--tickets', '2000', '--hot', '50', '--unlinked', '5000', '--desks', '4'],
      ALL,
    ),
  ],
  sla: [
    ...slaRowsOf('500 / 50', SMALL),
    ...slaRowsOf('1,200 / 80 + 3,000 unlinked, 3 desks', [
      '--tickets',
      '1200',
      '--hot',
      '80',
      '--unlinked',
      '3000',
      '--desks',
      '3',
    ]),
  ],
  // A real desk's sizes (issue 19's targets).
  scale: [
    ...rowsOf(
      '1,200 / 80 + 3,000 unlinked, 3 desks',
      ['--tickets', '1200', '--hot', '80', '--unlinked', '3000', '--desks', '3'],
      ALL,
    ),
    ...rowsOf('5,000 / 50', ['--tickets', '5000', '--hot', '50'], ['push', 'filter']),
    // Issue 26: a status change announced by the platform's webhook reaches the cards within
    // 10 s (the status p95 column) at 4,000 linked with 2,000 unlinked beside them.
    ...rowsOf(
      '4,000 / 60 + 2,000 unlinked',
      ['--tickets', '4000', '--hot', '60', '--unlinked', '2000'],
      ['push', 'filter'],
    ),
    ...rowsOf(
      '2,000 / 100 + 5,000 unlinked, 4 desks',
      ['--tickets', '2000', '--hot', '100', '--unlinked', '5000', '--desks', '4'],
      ['push', 'filter'],
    ),
  ],
};

const seeds = values.seeds.split(',').map(Number);
const only = values.only?.split(',');
const rows = (SETS[values.set] ?? []).filter(
  (row) => !only || only.some((name) => row.label.split(',')[0] === name),
);
const script = fileURLToPath(new URL('../mirror.ts', import.meta.url));

type Result = Record<string, unknown>;

function run(args: string[]): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: Number(values['timeout-s']) * 1000,
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk) => {
      err += chunk;
    });
    child.on('close', (code, signal) => {
      console.error(`npm run bench:mirror -- ${args.join(' ')}`);
      console.error(out.trim());
      console.error(err.trim());
      if (signal !== null) {
        reject(new Error(`stopped by ${signal} after ${values['timeout-s']} s: it did not end`));
        return;
      }
      if (code !== 0) {
        reject(new Error(`exit ${code}: ${err.trim()}`));
        return;
      }
      // The figures, with the details of stderr's last line under `details`.
      const details = JSON.parse(err.trim().split('\n').at(-1) as string) as Result;
      resolve({ ...(JSON.parse(out.trim().split('\n')[0] as string) as Result), details });
    });
  });
}

const jobs: (() => Promise<void>)[] = [];
const results = new Map<Row, Result[]>();
for (const row of rows) {
  results.set(row, []);
  for (const seed of seeds) {
    jobs.push(async () => {
      try {
        results.get(row)?.push(await run([...row.args, '--seed', String(seed)]));
      } catch (error) {
        console.error(String(error));
      }
    });
  }
}
let next = 0;
await Promise.all(
  Array.from({ length: Math.max(1, Number(values.jobs)) }, async () => {
    while (next < jobs.length) await (jobs[next++] as () => Promise<void>)();
  }),
);

// "median (min–max)", or one value when the seeds agree.
function spread(list: Result[], field: string): string {
  const numbers = list
    .map((result) => field.split('.').reduce<unknown>((at, key) => (at as Result)?.[key], result))
    .filter((value): value is number => typeof value === 'number')
    .sort((a, b) => a - b);
  if (numbers.length === 0) return '—';
  const median = numbers[Math.floor((numbers.length - 1) / 2)] as number;
  const min = numbers[0] as number;
  const max = numbers[numbers.length - 1] as number;
  // Seconds to a tenth below 100, whole above: the seeds differ by more than that.
  const show = (n: number) =>
    n.toLocaleString('en-US', { maximumFractionDigits: Math.abs(n) < 100 ? 1 : 0 });
  return min === max ? show(min) : `${show(median)} (${show(min)}–${show(max)})`;
}

const COLUMNS: [string, string][] = [
  ['requests/h', 'requests_per_hour'],
  ['poller/h', 'poller_requests_per_hour'],
  ['poller max/min', 'poller_max_requests_per_minute'],
  ['429', 'rate_limited'],
  ['people delayed', 'interactive_delayed'],
  ['people refused', 'failed_adds'],
  ['missed', 'missed'],
  ['dup. posts', 'duplicate_posts'],
  ['p50', 'latency_p50_s'],
  ['p95', 'latency_p95_s'],
  ['hot p50', 'hot_latency_p50_s'],
  ['hot p95', 'hot_latency_p95_s'],
  ['status p95', 'status_latency_p95_s'],
];
console.log(`| tickets / hot | strategy | ${COLUMNS.map(([name]) => name).join(' | ')} |`);
console.log(`|---|---|${COLUMNS.map(() => '---').join('|')}|`);
// A row some of whose runs failed says so, rather than a median of fewer seeds passing as all.
const labelOf = (row: Row) => {
  const ran = results.get(row)?.length ?? 0;
  return ran === seeds.length ? row.label : `${row.label} (${ran} of ${seeds.length} seeds ran)`;
};
for (const row of rows) {
  const list = results.get(row) ?? [];
  const cells = COLUMNS.map(([, field]) => spread(list, field));
  console.log(`| ${row.size} | ${labelOf(row)} | ${cells.join(' | ')} |`);
}

// Clocks (issue 27): the warnings' figures, and what the clock watch added to the requests.
if (values.set === 'sla') {
  const SLA_COLUMNS: [string, string][] = [
    ['requests/h', 'requests_per_hour'],
    ['429', 'rate_limited'],
    ['lines due', 'sla_lines_expected'],
    ['warnings', 'sla_warnings'],
    ['breaches', 'sla_breaches'],
    ['missed', 'sla_missed'],
    ['dup. warnings', 'sla_duplicate_warnings'],
    ['sla_warning_latency_p95_s', 'sla_warning_latency_p95_s'],
  ];
  console.log('');
  console.log(`| tickets / hot | strategy | ${SLA_COLUMNS.map(([name]) => name).join(' | ')} |`);
  console.log(`|---|---|${SLA_COLUMNS.map(() => '---').join('|')}|`);
  for (const row of rows) {
    const list = results.get(row) ?? [];
    const cells = SLA_COLUMNS.map(([, field]) => spread(list, field));
    console.log(`| ${row.size} | ${labelOf(row)} | ${cells.join(' | ')} |`);
  }
  // Each seed's requests with the clocks less the same seed's without: the same traffic.
  console.log('');
  console.log('| tickets / hot | strategy | extra requests/h with clocks | extra poller/h |');
  console.log('|---|---|---|---|');
  for (const row of rows) {
    if (!row.label.endsWith(', clocks')) continue;
    const base = rows.find(
      (other) =>
        other.size === row.size && other.label === row.label.replace(', clocks', ', no clocks'),
    );
    const on = results.get(row) ?? [];
    const off = base ? (results.get(base) ?? []) : [];
    const diff = (field: string): Result[] =>
      on.flatMap((result) => {
        const pair = off.find(
          (other) =>
            other.details && (other.details as Result).seed === (result.details as Result)?.seed,
        );
        return pair ? [{ d: (result[field] as number) - (pair[field] as number) }] : [];
      });
    console.log(
      `| ${row.size} | ${row.label.replace(', clocks', '')} | ${spread(diff('requests_per_hour'), 'd')} | ${spread(diff('poller_requests_per_hour'), 'd')} |`,
    );
  }
}

// Where the poller's requests went, and what the bound and the feed say.
const DETAILS: [string, string][] = [
  ['people/h', 'details.interactive_requests_per_hour'],
  ['poller on hot', 'details.poller_by_target.hot'],
  ['on cold', 'details.poller_by_target.cold'],
  ['lists', 'details.poller_by_target.lists'],
  ['empty looks/h', 'empty_looks_per_hour'],
  ['claims put back', 'claims_put_back'],
  ['cpu s', 'cpu_s'],
  ['feed scans', 'details.feed.scans'],
  ['round-robin p95 bound', 'details.round_robin_hot_p95_bound_s'],
];
console.log('');
console.log(`| tickets / hot | strategy | ${DETAILS.map(([name]) => name).join(' | ')} |`);
console.log(`|---|---|${DETAILS.map(() => '---').join('|')}|`);
for (const row of rows) {
  const list = results.get(row) ?? [];
  const cells = DETAILS.map(([, field]) => spread(list, field));
  console.log(`| ${row.size} | ${labelOf(row)} | ${cells.join(' | ')} |`);
}
