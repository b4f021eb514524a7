/**
 * The emulator's command line: flags into `startEmulator` options. Separate from `cli.ts` so
 * it can be read (and tested) without starting a server.
 */
import { parseArgs } from 'node:util';
import { ConfigError } from './errors.ts';
import type { EmulatorOptions } from './index.ts';
import { keysFromEnv } from './keys.ts';

/** Help text. */
export const USAGE = `Usage: node src/emulator/cli.ts [options]
  --port N              port to listen on (default 4010; 0 picks a free one)
  --host ADDRESS        address to listen on (default 127.0.0.1)
  --variant a|b         addressing variant (default a)
  --seed demo|empty     initial data (default demo)
  --rate-per-minute N   requests per key per minute (default 100)
  --rate-per-hour N     requests per key per hour (default 1000)
  --ai-delay-ms N       delay before the AI agent acts (default 1500)
  --fault-rate X        fraction of requests that fail, 0 to 1 (default 0)
  --latency-ms N        delay added to every request (default 0)
Keys: EMULATOR_KEYS=tenant:rw|ro:key,... replaces the demo keys.`;

/** Reads the command line into emulator options; throws ConfigError on a bad value. */
export function parseCli(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): EmulatorOptions | 'help' {
  let values: ReturnType<typeof parse>['values'];
  try {
    values = parse(argv).values;
  } catch (error) {
    throw new ConfigError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) return 'help';
  const variant = values.variant;
  if (variant !== 'a' && variant !== 'b') throw new ConfigError('--variant must be a or b');
  const seed = values.seed;
  if (seed !== 'demo' && seed !== 'empty') throw new ConfigError('--seed must be demo or empty');
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
    keys: keysFromEnv(env),
  };
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
      help: { type: 'boolean', short: 'h', default: false },
    },
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
    throw new ConfigError(`${flag} must be a whole number ${range}, got "${raw}"`);
  }
  return value;
}

function fraction(flag: string, raw: string): number {
  const value = /^\d*\.?\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= 0 && value <= 1))
    throw new ConfigError(`${flag} must be a number from 0 to 1, got "${raw}"`);
  return value;
}
