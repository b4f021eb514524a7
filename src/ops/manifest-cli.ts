/**
 * `npm run manifest -- --url https://your.host [--dashboard-host your-dashboard.host]`: prints
 * manifest.yml with every request URL pointed at the app's public URL and the dashboard's host
 * in unfurl_domains (repeat --dashboard-host, or separate with commas, for several), ready to
 * paste into https://api.slack.com/apps. Exit codes: 0 printed, 2 usage or a bad option.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { ManifestOptionInvalidError } from './errors.ts';
import { manifestForUrl } from './manifest-for-url.ts';
import { DEFAULT_MANIFEST_URL } from './manifest-scopes.ts';

const USAGE = `usage: npm run manifest -- --url https://your.host [--dashboard-host your-dashboard.host]

  --url              the app's public https URL (Slack sends its requests to <url>/slack/events)
  --dashboard-host   the host of your tickets' dashboard links, whose links unfurl in Slack
                     (as SERVICE_DESK_DASHBOARD_HOSTS); repeat it for several, up to 5
  --manifest PATH    another manifest.yml to fill in (default: the project's)

Prints the manifest to paste at https://api.slack.com/apps > Create New App > From a manifest.
`;

/** Runs the command with these arguments; returns the exit code. */
export async function runManifestCli(
  argv: readonly string[],
  out: (text: string) => void = (text) => process.stdout.write(text),
  err: (text: string) => void = (text) => process.stderr.write(text),
): Promise<number> {
  let values: { url?: string; 'dashboard-host'?: string[]; manifest?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        url: { type: 'string' },
        'dashboard-host': { type: 'string', multiple: true },
        manifest: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (error) {
    err(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    out(USAGE);
    return 0;
  }
  if (!values.url) {
    err(`--url is required\n\n${USAGE}`);
    return 2;
  }
  const hosts = (values['dashboard-host'] ?? [])
    .flatMap((h) => h.split(','))
    .filter((h) => h.trim());
  try {
    const text = await readFile(values.manifest ?? DEFAULT_MANIFEST_URL, 'utf8');
    out(manifestForUrl(text, { url: values.url, dashboardHosts: hosts }));
    if (hosts.length === 0)
      err(
        'No --dashboard-host: ticket links will not unfurl until their host is in unfurl_domains.\n',
      );
    return 0;
  } catch (error) {
    if (!(error instanceof ManifestOptionInvalidError)) throw error;
    err(`${error.message}\n`);
    return 2;
  }
}

if (import.meta.main) process.exitCode = await runManifestCli(process.argv.slice(2));
