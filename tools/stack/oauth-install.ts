/**
 * Installing the app of an `oauth` stack the way an admin does, and driving the organization's
 * other workspaces: what the OAuth and organization end-to-end tests share.
 */
import { installAsAdmin, SlackDriver } from '../slack-double/index.ts';
import { SIGNING_SECRET, type Stack } from './stack.ts';

/**
 * Installs the app as an admin of `team` (a team id, or the enterprise id for org-wide):
 * /slack/install, the double's consent screen, back to /slack/oauth_redirect. The status and
 * text of the page the admin lands on.
 */
export async function installByOAuth(
  on: Stack,
  team: string,
): Promise<{ status: number; text: string }> {
  const walked = await installAsAdmin(`http://127.0.0.1:${on.app.port}`, team);
  if (walked.step !== '/slack/oauth_redirect') {
    throw new Error(`${walked.step} answered ${walked.status}`);
  }
  return { status: walked.status, text: walked.text };
}

/** A driver of the organization's workspace number `index` (0: the default one); close it. */
export function driverOf(on: Stack, index: number): SlackDriver {
  const workspace = on.double.workspaces[index];
  if (!workspace) throw new Error(`the double has no workspace ${index}`);
  return new SlackDriver({
    appUrl: `http://127.0.0.1:${on.app.port}/slack/events`,
    signingSecret: SIGNING_SECRET,
    double: on.double,
    workspace,
  });
}
