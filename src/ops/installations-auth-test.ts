/**
 * Readiness when installed by OAuth: Slack answers `auth.test` for at least one installation.
 * Tried one installation after another, each with its own client without retries (a probe must
 * answer now); the first that passes makes the app ready. Tokens stay in the clients.
 */
import { WebClient } from '@slack/web-api';
import type { InstallationRecords } from '../store/install-types.ts';
import { NoInstallationError } from './errors.ts';

/** Resolves when one installation's bot token passes auth.test; else throws the last failure. */
export async function authTestAnyInstallation(
  installations: Pick<InstallationRecords, 'list'>,
  apiUrl: string | undefined,
): Promise<void> {
  const all = await installations.list();
  let last: unknown = new NoInstallationError();
  for (const { installation } of all) {
    const token = installation.bot?.token;
    if (!token) continue;
    try {
      await new WebClient(token, {
        retryConfig: { retries: 0 },
        ...(apiUrl ? { slackApiUrl: apiUrl } : {}),
      }).auth.test();
      return;
    } catch (error) {
      last = error;
    }
  }
  throw last;
}
