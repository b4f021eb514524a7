/**
 * The sandbox as an Enterprise Grid organization: the app installed by OAuth into each of the
 * organization's workspaces at start, as an admin of each would install it by clicking "Add to
 * Slack": the app's /slack/install, the Slack double's consent screen approved for that
 * workspace, and the app's /slack/oauth_redirect, which exchanges the code (oauth.v2.access)
 * for the workspace's bot token and keeps it sealed. The tokens stay inside the app.
 */
import { randomBytes } from 'node:crypto';
import { installAsAdmin } from '../slack-double/index.ts';
import { SandboxInstallError } from './errors.ts';

/**
 * The OAuth settings of an organization sandbox, new for each run: a client id of Slack's shape,
 * and secrets and a token key nobody else knows (nothing of it is kept or printed).
 */
export function organizationOAuthSettings(): Record<string, string> {
  return {
    SLACK_CLIENT_ID: `${1000 + randomBytes(2).readUInt16BE()}.${randomBytes(4).readUInt32BE()}`,
    SLACK_CLIENT_SECRET: randomBytes(16).toString('hex'),
    SLACK_STATE_SECRET: randomBytes(16).toString('hex'),
    SLACK_TOKEN_KEY: randomBytes(32).toString('base64'),
  };
}

/**
 * Installs the app (listening at `appUrl`) into the workspace `team`, as its admin would from
 * the app's install page; resolves once the app has kept the installation.
 */
export async function installIntoWorkspace(appUrl: string, team: string): Promise<void> {
  const walked = await installAsAdmin(appUrl, team);
  if (!walked.installed) throw new SandboxInstallError(team, walked.step, walked.status);
}
