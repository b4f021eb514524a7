/**
 * `npm run emulator`: runs the emulator until SIGTERM or SIGINT.
 *
 * node src/emulator/cli.ts [--port 4010] [--host 127.0.0.1] [--variant a|b] [--seed demo|empty]
 *   [--rate-per-minute 100] [--rate-per-hour 1000] [--ai-delay-ms 1500] [--fault-rate 0]
 *   [--latency-ms 0]
 *
 * A bad flag or EMULATOR_KEYS value exits with code 2 and says what is wrong.
 */
import { parseCli, USAGE } from './cli-options.ts';
import { ConfigError } from './errors.ts';
import { type EmulatorOptions, startEmulator } from './index.ts';
import { describeKey } from './keys.ts';

async function main(): Promise<void> {
  let options: EmulatorOptions | 'help';
  try {
    options = parseCli(process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`emulator: ${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (options === 'help') {
    console.log(USAGE);
    return;
  }
  const emulator = await startEmulator(options);
  console.log(
    `service-desk emulator (variant ${emulator.variant}, seed ${options.seed}) listening on ${emulator.url}`,
  );
  console.log(`access keys (tenant/role=key): ${emulator.keys.map(describeKey).join(', ')}`);
  const stop = () => {
    emulator.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('emulator: failed to stop cleanly', error);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

await main();
