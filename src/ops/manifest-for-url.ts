/**
 * manifest.yml filled in for one installation: every request URL pointed at the admin's public
 * URL, and the unfurl domains set to the dashboard's hosts. Comments and order are kept, so what
 * the admin pastes reads as the repository's manifest does.
 */
import { isMap, isSeq, parseDocument, visit } from 'yaml';
import { ManifestOptionInvalidError } from './errors.ts';

/** The public URL manifest.yml is written with: every request URL starts with it. */
export const MANIFEST_PLACEHOLDER_URL = 'https://servicedesk-slack.example.com';
/** The unfurl domain manifest.yml is written with: the host of tickets' dashboard links. */
export const MANIFEST_PLACEHOLDER_DOMAIN = 'servicedesk-dashboard.example';

/** What the admin fills in. */
export interface ManifestFill {
  /** The app's public https URL (its origin, maybe with a path the app is served under). */
  url: string;
  /** The hosts of tickets' dashboard links; none leaves no unfurl domain (links do not unfurl). */
  dashboardHosts: readonly string[];
}

const HOST = /^(?![.-])[-a-z0-9.]+[a-z0-9]$/;

/** The URL as the manifest takes it, or ManifestOptionInvalidError saying what is wrong. */
export function publicBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ManifestOptionInvalidError(
      '--url',
      `"${raw}" is not a URL: write it as https://your.host`,
    );
  }
  if (url.protocol !== 'https:')
    throw new ManifestOptionInvalidError(
      '--url',
      `must be https (Slack calls only https URLs), got ${raw}`,
    );
  if (url.search || url.hash || url.username || url.password)
    throw new ManifestOptionInvalidError(
      '--url',
      'takes the origin alone (and a path, if any): no query, fragment or user',
    );
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** A dashboard host as unfurl_domains takes it, or ManifestOptionInvalidError. */
export function dashboardHost(raw: string): string {
  const host = raw.trim().toLowerCase();
  if (!HOST.test(host) || host.length > 255)
    throw new ManifestOptionInvalidError(
      '--dashboard-host',
      `"${raw}" is not a host name: write the host alone (no https:// or path), e.g. acme.servicedesk.example`,
    );
  return host;
}

/** manifest.yml's text with the admin's URL and dashboard hosts in place of the placeholders. */
export function manifestForUrl(manifestText: string, fill: ManifestFill): string {
  const base = publicBaseUrl(fill.url);
  const hosts = [...new Set(fill.dashboardHosts.map(dashboardHost))];
  if (hosts.length > 5)
    throw new ManifestOptionInvalidError(
      '--dashboard-host',
      'Slack takes at most 5 unfurl domains',
    );
  const document = parseDocument(manifestText);
  visit(document, {
    Scalar(_key, node) {
      if (typeof node.value === 'string' && node.value.startsWith(MANIFEST_PLACEHOLDER_URL))
        node.value = base + node.value.slice(MANIFEST_PLACEHOLDER_URL.length);
    },
  });
  const features = document.get('features');
  if (isMap(features)) {
    const domains = features.get('unfurl_domains', true);
    if (hosts.length === 0) features.delete('unfurl_domains');
    else if (isSeq(domains)) {
      domains.items = hosts.map((host) => document.createNode(host));
    } else {
      features.set('unfurl_domains', hosts);
    }
  }
  // The header tells how to fill the placeholders in: this one says they were. YAML keeps a
  // file's first comment on the document, or on its first key when no blank line follows it.
  const first = isMap(document.contents) ? document.contents.items[0]?.key : undefined;
  if (first && typeof first === 'object' && 'commentBefore' in (first as object))
    (first as { commentBefore?: string | null }).commentBefore = null;
  document.commentBefore = [
    ` The Slack app manifest for ${base}, printed by npm run manifest.`,
    ' Paste it at https://api.slack.com/apps > Create New App > From a manifest (README: Install).',
    hosts.length === 0
      ? ' No unfurl_domains: ticket links do not unfurl (run again with --dashboard-host).'
      : ` Tickets' dashboard links on ${hosts.join(', ')} unfurl as cards.`,
  ].join('\n');
  const text = document.toString({ lineWidth: 0 });
  // Nothing of the placeholders may be left for the admin to find by hand.
  const host = new URL(MANIFEST_PLACEHOLDER_URL).host;
  if (text.includes(host) || text.includes(MANIFEST_PLACEHOLDER_DOMAIN))
    throw new ManifestOptionInvalidError(
      '--url',
      'cannot be filled in: manifest.yml holds a placeholder where no URL or domain is expected',
    );
  return text;
}
