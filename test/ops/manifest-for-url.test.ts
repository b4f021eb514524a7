import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ManifestOptionInvalidError } from '../../src/ops/errors.ts';
import { runManifestCli } from '../../src/ops/manifest-cli.ts';
import {
  MANIFEST_PLACEHOLDER_DOMAIN,
  MANIFEST_PLACEHOLDER_URL,
  manifestForUrl,
} from '../../src/ops/manifest-for-url.ts';

const manifestText = readFileSync(new URL('../../manifest.yml', import.meta.url), 'utf8');
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const installSteps = readme.slice(
  readme.indexOf('## Install into Slack'),
  readme.indexOf('**Socket Mode**'),
);

/** Every string in the manifest that is a URL, with the key path that holds it. */
function urlsOf(value: unknown, path = ''): { path: string; url: string }[] {
  if (typeof value === 'string') return /^https?:\/\//.test(value) ? [{ path, url: value }] : [];
  if (Array.isArray(value)) return value.flatMap((item, i) => urlsOf(item, `${path}[${i}]`));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([key, item]) =>
      urlsOf(item, path ? `${path}.${key}` : key),
    );
  return [];
}

const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'];

describe('the install steps and manifest.yml', () => {
  const urls = urlsOf(parse(manifestText));

  it('names every URL of manifest.yml in the README’s install steps, by its key and how many there are', () => {
    expect(urls.length).toBeGreaterThan(0);
    for (const { path, url } of urls) {
      expect(url.startsWith(MANIFEST_PLACEHOLDER_URL), path).toBe(true);
      const key = path
        .split('.')
        .at(-1)
        ?.replace(/\[\d+\]$/, '') as string;
      expect(installSteps, path).toContain(`\`${key}\``);
    }
    const count = NUMBER_WORDS[urls.length] as string;
    expect(installSteps).toContain(`replace the ${count} \`${MANIFEST_PLACEHOLDER_URL}\``);
    expect(installSteps).toContain(`the ${count} request URLs`);
    expect(manifestText).toContain(`replace the ${count} ${MANIFEST_PLACEHOLDER_URL}`);
  });

  it('names the unfurl domain placeholder in the README’s install steps', () => {
    expect(parse(manifestText).features.unfurl_domains).toEqual([MANIFEST_PLACEHOLDER_DOMAIN]);
    expect(installSteps).toContain(`\`${MANIFEST_PLACEHOLDER_DOMAIN}\``);
    expect(installSteps).toContain('`unfurl_domains`');
  });

  it('no longer asks to start the app before the manifest is saved', () => {
    expect(manifestText).not.toMatch(/start the app there first/);
  });

  it('replaces every URL of the manifest with the admin’s, and the unfurl domain with the dashboard host', () => {
    const text = manifestForUrl(manifestText, {
      url: 'https://sd.acme.example/',
      dashboardHosts: ['Desk.Acme.example'],
    });
    expect(text).not.toContain('servicedesk-slack.example.com');
    expect(text).not.toContain(MANIFEST_PLACEHOLDER_DOMAIN);
    const filled = parse(text);
    const filledUrls = urlsOf(filled);
    expect(filledUrls.map((u) => u.path)).toEqual(urls.map((u) => u.path));
    for (const { path, url } of filledUrls) {
      const route = path.startsWith('oauth_config.redirect_urls')
        ? '/slack/oauth_redirect'
        : '/slack/events';
      expect(url, path).toBe(`https://sd.acme.example${route}`);
    }
    expect(filled.oauth_config.redirect_urls).toEqual([
      'https://sd.acme.example/slack/oauth_redirect',
    ]);
    expect(filled.features.unfurl_domains).toEqual(['desk.acme.example']);
  });

  it('leaves out unfurl_domains when no dashboard host is given', () => {
    const filled = parse(
      manifestForUrl(manifestText, { url: 'https://sd.acme.example', dashboardHosts: [] }),
    );
    expect(filled.features.unfurl_domains).toBeUndefined();
  });

  it('refuses an http URL and a dashboard host written as a URL', () => {
    expect(() =>
      manifestForUrl(manifestText, { url: 'http://sd.acme.example', dashboardHosts: [] }),
    ).toThrow(ManifestOptionInvalidError);
    expect(() =>
      manifestForUrl(manifestText, {
        url: 'https://sd.acme.example',
        dashboardHosts: ['https://desk.example/x'],
      }),
    ).toThrow(/--dashboard-host/);
  });

  it('prints the filled manifest from npm run manifest, and exits 2 without --url', async () => {
    let out = '';
    let err = '';
    const code = await runManifestCli(
      ['--url', 'https://sd.acme.example', '--dashboard-host', 'desk.acme.example'],
      (t) => {
        out += t;
      },
      (t) => {
        err += t;
      },
    );
    expect(code).toBe(0);
    expect(parse(out).settings.event_subscriptions.request_url).toBe(
      'https://sd.acme.example/slack/events',
    );
    expect(err).toBe('');
    expect(
      await runManifestCli(
        [],
        () => undefined,
        (t) => {
          err += t;
        },
      ),
    ).toBe(2);
    expect(err).toContain('--url is required');
  });
});
