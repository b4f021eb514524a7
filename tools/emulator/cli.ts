/**
 * `npm run emulator`: runs the emulator until SIGTERM or SIGINT.
 *
 * node tools/emulator/cli.ts [--port 4010] [--host 127.0.0.1] [--variant a|b] [--seed demo|empty]
 *   [--rate-per-minute 100] [--rate-per-hour 1000] [--ai-delay-ms 1500] [--fault-rate 0]
 *   [--latency-ms 0] [--random-seed 1] [--[no-]updated-at] [--[no-]updated-after]
 *   [--[no-]custom-fields] [--[no-]catalog] [--[no-]required-fields-on-create] [--[no-]sla-clocks]
 *   [--webhook-url URL --webhook-secret S [--webhook-bearer] [--webhook-tenant T]
 *    [--webhook-drop-rate 0] [--webhook-duplicate-rate 0] [--webhook-delay-ms 0]
 *    [--webhook-reorder] [--webhook-timeout-ms 10000] [--webhook-retry-for-ms 86400000]]
 *
 * A bad flag or EMULATOR_KEYS value exits with code 2 and says what is wrong.
 */

import { isPortInUse, portInUseLine } from '../../src/port-in-use.ts';
import { parseCli, USAGE } from './cli-options.ts';
import { EmulatorConfigError } from './errors.ts';
import { type EmulatorOptions, type RunningEmulator, startEmulator } from './index.ts';
import { describeKey } from './keys.ts';

async function main(): Promise<void> {
  let options: EmulatorOptions | 'help';
  try {
    options = parseCli(process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof EmulatorConfigError)) throw error;
    console.error(`emulator: ${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (options === 'help') {
    console.log(USAGE);
    return;
  }
  // Handlers first, and kept for every signal: a signal that comes while starting, or a second
  // one while closing, must still end in a clean exit rather than the default kill.
  let emulator: Awaited<ReturnType<typeof startEmulator>> | undefined;
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    (emulator?.close() ?? Promise.resolve()).then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('emulator: failed to stop cleanly', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  try {
    emulator = await startEmulator(options);
  } catch (error) {
    if (!isPortInUse(error)) throw error;
    console.error(
      `emulator: ${portInUseLine(error, options.port ?? 4010, 'pass --port with a free one (--port 0 picks any)')}`,
    );
    process.exit(1);
  }
  if (stopping) {
    await emulator.close();
    process.exit(0);
  }
  console.log(
    `service-desk emulator (variant ${emulator.variant}, seed ${options.seed}) listening on ${emulator.url}`,
  );
  console.log(`access keys (tenant/role=key): ${emulator.keys.map(describeKey).join(', ')}`);
  console.log(describeCapabilities(emulator));
}

// The secret is never printed; the URL and the signing mode are what a person checks.
function describeCapabilities(emulator: RunningEmulator): string {
  const { updatedAt, updatedAfter, serviceLevels } = emulator.model.capabilities;
  const onOff = (on: boolean) => (on ? 'on' : 'off');
  const hooks = emulator.webhooks.settings;
  const target =
    hooks.url === undefined
      ? 'off'
      : `${hooks.url} (${hooks.bearer ? 'bearer token' : 'HMAC-signed'})`;
  return `capabilities: updated_at ${onOff(updatedAt)}, updated_after ${onOff(updatedAfter)}, webhooks ${target}, service-level clocks ${onOff(serviceLevels)}`;
}

await main();
