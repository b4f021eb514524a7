/**
 * Where an installation is kept and how it is written, shared by the memory and Redis stores:
 * an org-wide install under `org:<enterprise id>`, a workspace install under `team:<team id>`;
 * the value is its summary in the clear and the installation sealed (`token-cipher.ts`).
 */
import type { Installation, InstallationQuery } from '@slack/bolt';
import { StoreDataError } from './errors.ts';
import type { InstallationSummary, KeptInstallation } from './install-types.ts';
import type { TokenCipher } from './token-cipher.ts';

/** The places a query may be answered from, in order (Bolt's `InstallationQuery` semantics). */
export function placesOf(query: InstallationQuery<boolean>): string[] {
  if (query.isEnterpriseInstall && query.enterpriseId) return [`org:${query.enterpriseId}`];
  const places: string[] = [];
  if (query.teamId) places.push(`team:${query.teamId}`);
  // A workspace of an organization the app is installed in org-wide is served by that install.
  if (query.enterpriseId) places.push(`org:${query.enterpriseId}`);
  return places;
}

/** Where an installation is kept. */
export function placeOf(installation: Installation): string {
  if (installation.isEnterpriseInstall && installation.enterprise?.id) {
    return `org:${installation.enterprise.id}`;
  }
  const team = installation.team?.id;
  if (!team) throw new StoreDataError('an installation without a team id or enterprise id');
  return `team:${team}`;
}

/** What names an installation, without its tokens. */
export function summaryOf(installation: Installation, installedAt: number): InstallationSummary {
  return {
    kind: installation.isEnterpriseInstall ? 'org' : 'workspace',
    teamId: installation.team?.id,
    enterpriseId: installation.enterprise?.id,
    scopes: [...(installation.bot?.scopes ?? [])],
    installedAt,
  };
}

/** The stored text of an installation. */
export function encodeInstallation(
  cipher: TokenCipher,
  place: string,
  installation: Installation,
  installedAt: number,
): string {
  const summary = summaryOf(installation, installedAt);
  return JSON.stringify({
    v: 1,
    summary,
    sealed: cipher.seal(JSON.stringify(installation), place),
  });
}

/** An installation read back from its stored text. */
export function decodeInstallation(
  cipher: TokenCipher,
  place: string,
  text: string,
): KeptInstallation {
  let parsed: { v?: unknown; summary?: InstallationSummary; sealed?: unknown };
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch (error) {
    throw new StoreDataError(`installation ${place} is not JSON`, { cause: error });
  }
  if (parsed.v !== 1 || typeof parsed.sealed !== 'string' || !parsed.summary) {
    throw new StoreDataError(`installation ${place} has an unknown shape`);
  }
  const installation = JSON.parse(cipher.open(parsed.sealed, place)) as Installation;
  return { summary: parsed.summary, installation };
}

/** The summary of a stored installation, read without the key. */
export function summaryOfStored(text: string): InstallationSummary | undefined {
  try {
    return (JSON.parse(text) as { summary?: InstallationSummary }).summary;
  } catch {
    return undefined;
  }
}
