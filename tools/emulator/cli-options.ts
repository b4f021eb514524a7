/**
 * The emulator's command line: flags into `startEmulator` options. Separate from `cli.ts` so
 * it can be read (and tested) without starting a server.
 */
import { parseArgs } from 'node:util';
import { EmulatorConfigError } from './errors.ts';
import type { EmulatorOptions } from './index.ts';
import { keysFromEnv } from './keys.ts';

/** Help text. */
export const USAGE = `Usage: node tools/emulator/cli.ts [options]
  --port N              port to listen on (default 4010; 0 picks a free one)
  --host ADDRESS        address to listen on (default 127.0.0.1)
  --variant a|b         addressing variant (default a)
  --seed demo|empty     initial data (default demo)
  --rate-per-minute N   requests per key per minute (default 100)
  --rate-per-hour N     requests per key per hour (default 1000)
  --ai-delay-ms N       delay before the AI agent acts (default 1500)
  --fault-rate X        fraction of requests that fail, 0 to 1 (default 0)
  --latency-ms N        delay added to every request (default 0)
  --random-seed N       seed of the request and webhook fault draws (default 1)
  --[no-]updated-at     tickets carry updated_at (default on)
  --[no-]updated-after  List tickets honours updated_after (default: as --updated-at);
                        off, the parameter is ignored like any unknown one
  --[no-]custom-fields  List custom fields is served and checks create's custom_fields
                        (default on); off, its path is a 404
  --[no-]catalog        List catalog items is served (default on); off, its path is a 404
  --[no-]required-fields-on-create
                        Create ticket refuses an empty required custom field (default on);
                        off, it files the ticket and the field is set by Update ticket
  --[no-]sla-clocks     tickets carry service-level clocks (first_response_due_at,
                        resolution_due_at, first_responded_at, sla_paused) from the
                        demo policy (default on); off, the fields are left out
  --[no-]ticket-filters List tickets honours assignee_email and a comma-separated status
                        (default on); off, both are ignored like any unknown parameter
Webhooks (off unless --webhook-url is given):
  --webhook-url URL     receiver of one POST per ticket change (ticket.created included)
  --webhook-secret S    shared secret (or EMULATOR_WEBHOOK_SECRET); signs each body
  --webhook-bearer      send Authorization: Bearer <secret> instead of a signature
  --webhook-tenant T    only this tenant's tickets (default every tenant)
  --webhook-drop-rate X       fraction of deliveries lost, 0 to 1 (default 0)
  --webhook-duplicate-rate X  fraction of deliveries sent twice, 0 to 1 (default 0)
  --webhook-delay-ms N        delay before a delivery's first attempt (default 0)
  --webhook-reorder           hold each delivery a random 0 to 1000 ms more
  --webhook-timeout-ms N      an attempt without an answer by then is retried (default 10000)
  --webhook-retry-for-ms N    give a delivery up after this long (default 86400000)
Keys: EMULATOR_KEYS=tenant:rw|ro:key,... replaces the demo keys.`;

/** Reads the command line into emulator options; throws EmulatorConfigError on a bad value. */
export function parseCli(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): EmulatorOptions | 'help' {
  let values: ReturnType<typeof parse>['values'];
  try {
    values = parse(argv).values;
  } catch (error) {
    throw new EmulatorConfigError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) return 'help';
  const variant = values.variant;
  if (variant !== 'a' && variant !== 'b') throw new EmulatorConfigError('--variant must be a or b');
  const seed = values.seed;
  if (seed !== 'demo' && seed !== 'empty')
    throw new EmulatorConfigError('--seed must be demo or empty');
  const updatedAt = values['updated-at'];
  const updatedAfter = values['updated-after'];
  if (updatedAt === false && updatedAfter === true) {
    throw new EmulatorConfigError(
      '--updated-after needs updated_at on tickets; drop --no-updated-at',
    );
  }
  return {
    port: wholeNumber('--port', values.port, 0, 65_535),
    host: values.host,
    variant,
    seed,
    ratePerMinute: wholeNumber('--rate-per-minute', values['rate-per-minute'], 1),
    ratePerHour: wholeNumber('--rate-per-hour', values['rate-per-hour'], 1),
    aiDelayMs: wholeNumber('--ai-delay-ms', values['ai-delay-ms'], 0),
    faultRate: fraction('--fault-rate', values['fault-rate']),
    latencyMs: wholeNumber('--latency-ms', values['latency-ms'], 0),
    randomSeed: wholeNumber('--random-seed', values['random-seed'], 0, 0xffff_ffff),
    keys: keysFromEnv(env),
    capabilities: {
      ...(updatedAt === undefined ? {} : { updatedAt }),
      ...(updatedAfter === undefined ? {} : { updatedAfter }),
      ...(values['custom-fields'] === undefined ? {} : { customFields: values['custom-fields'] }),
      ...(values.catalog === undefined ? {} : { catalog: values.catalog }),
      ...(values['required-fields-on-create'] === undefined
        ? {}
        : { requiredFieldsOnCreate: values['required-fields-on-create'] }),
      ...(values['sla-clocks'] === undefined ? {} : { serviceLevels: values['sla-clocks'] }),
      ...(values['ticket-filters'] === undefined
        ? {}
        : { ticketFilters: values['ticket-filters'] }),
    },
    ...webhookOptions(values, env),
  };
}

// Webhooks only with a URL; any other webhook flag without one is a mistake worth saying.
function webhookOptions(
  values: ReturnType<typeof parse>['values'],
  env: Readonly<Record<string, string | undefined>>,
): Pick<EmulatorOptions, 'webhook'> {
  const url = values['webhook-url'];
  if (url === undefined) {
    const stray = Object.keys(values).find((name) => name.startsWith('webhook-'));
    if (stray !== undefined) throw new EmulatorConfigError(`--${stray} needs --webhook-url`);
    return {};
  }
  if (!isHttpUrl(url)) {
    throw new EmulatorConfigError(
      `--webhook-url must be an absolute http or https URL, got "${url}"`,
    );
  }
  const secret = values['webhook-secret'] ?? env.EMULATOR_WEBHOOK_SECRET ?? '';
  // Never echo the secret: it is a password.
  if (secret === '') {
    throw new EmulatorConfigError(
      '--webhook-url needs --webhook-secret (or EMULATOR_WEBHOOK_SECRET)',
    );
  }
  const read = <T>(raw: string | undefined, parse: (raw: string) => T): T | undefined =>
    raw === undefined ? undefined : parse(raw);
  const settings = {
    bearer: values['webhook-bearer'],
    tenant: values['webhook-tenant'],
    dropRate: read(values['webhook-drop-rate'], (raw) => fraction('--webhook-drop-rate', raw)),
    duplicateRate: read(values['webhook-duplicate-rate'], (raw) =>
      fraction('--webhook-duplicate-rate', raw),
    ),
    delayMs: read(values['webhook-delay-ms'], (raw) => wholeNumber('--webhook-delay-ms', raw, 0)),
    reorder: values['webhook-reorder'],
    timeoutMs: read(values['webhook-timeout-ms'], (raw) =>
      wholeNumber('--webhook-timeout-ms', raw, 1),
    ),
    retryForMs: read(values['webhook-retry-for-ms'], (raw) =>
      wholeNumber('--webhook-retry-for-ms', raw, 0),
    ),
  };
  const given = Object.fromEntries(
    Object.entries(settings).filter(([, value]) => value !== undefined),
  );
  // A standalone emulator plays the contract's platform, which announces new tickets too.
  return { webhook: { url, secret, announceCreated: true, ...given } };
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: 'string', default: '4010' },
      host: { type: 'string', default: '127.0.0.1' },
      variant: { type: 'string', default: 'a' },
      seed: { type: 'string', default: 'demo' },
      'rate-per-minute': { type: 'string', default: '100' },
      'rate-per-hour': { type: 'string', default: '1000' },
      'ai-delay-ms': { type: 'string', default: '1500' },
      'fault-rate': { type: 'string', default: '0' },
      'latency-ms': { type: 'string', default: '0' },
      'random-seed': { type: 'string', default: '1' },
      // No defaults: absent means "as the emulator's default", which --updated-after needs to
      // tell apart from an explicit choice.
      'updated-at': { type: 'boolean' },
      'updated-after': { type: 'boolean' },
      'custom-fields': { type: 'boolean' },
      'ticket-filters': { type: 'boolean' },
      catalog: { type: 'boolean' },
      'required-fields-on-create': { type: 'boolean' },
      'sla-clocks': { type: 'boolean' },
      'webhook-url': { type: 'string' },
      'webhook-secret': { type: 'string' },
      'webhook-bearer': { type: 'boolean' },
      'webhook-tenant': { type: 'string' },
      'webhook-drop-rate': { type: 'string' },
      'webhook-duplicate-rate': { type: 'string' },
      'webhook-delay-ms': { type: 'string' },
      'webhook-reorder': { type: 'boolean' },
      'webhook-timeout-ms': { type: 'string' },
      'webhook-retry-for-ms': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    allowNegative: true,
  });
}

function wholeNumber(
  flag: string,
  raw: string,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `${min} or more` : `from ${min} to ${max}`;
    throw new EmulatorConfigError(`${flag} must be a whole number ${range}, got "${raw}"`);
  }
  return value;
}

function isHttpUrl(raw: string): boolean {
  try {
    const { protocol } = new URL(raw);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

function fraction(flag: string, raw: string): number {
  const value = /^\d*\.?\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= 0 && value <= 1))
    throw new EmulatorConfigError(`${flag} must be a number from 0 to 1, got "${raw}"`);
  return value;
}
