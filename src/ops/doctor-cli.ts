/**
 * `npm run doctor`: checks the configured Slack app, platform and Redis, prints what to fix, and
 * exits 0 only when every check passed. `--json` prints the report as one JSON object instead.
 */
import { loadDotEnv } from '../config.ts';
import { scrubSecrets } from '../logger.ts';
import { formatReport, runDoctor } from './doctor.ts';

loadDotEnv();
const env = process.env;
const report = await runDoctor({ env });
const secrets = [
  env.SLACK_BOT_TOKEN,
  env.SLACK_APP_TOKEN,
  env.SLACK_SIGNING_SECRET,
  env.SERVICE_DESK_API_KEY,
].filter((s): s is string => typeof s === 'string' && s.trim() !== '');
// The checks never quote a secret; this is the belt to that pair of braces.
const text = process.argv.includes('--json') ? `${JSON.stringify(report)}\n` : formatReport(report);
process.stdout.write(scrubSecrets(text, secrets));
process.exitCode = report.ok ? 0 : 1;
