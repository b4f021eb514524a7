/**
 * Installing the app of an `oauth` stack the way an admin does, and driving the organization's
 * other workspaces: what the OAuth and organization end-to-end tests share.
 */
import { SlackDriver } from '../slack-double/index.ts';
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
  const base = `http://127.0.0.1:${on.app.port}`;
  const start = await fetch(`${base}/slack/install`, { redirect: 'manual' });
  if (start.status !== 302) throw new Error(`/slack/install answered ${start.status}`);
  const cookie = start.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  const consent = new URL(start.headers.get('location') ?? '');
  consent.searchParams.set('team', team);
  const approved = await fetch(consent, { redirect: 'manual' });
  if (approved.status !== 302) throw new Error(`the consent screen answered ${approved.status}`);
  const back = await fetch(approved.headers.get('location') ?? '', { headers: { cookie } });
  return { status: back.status, text: await back.text() };
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
