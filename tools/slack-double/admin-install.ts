/**
 * Installing an app through the double's OAuth as a workspace's admin would from the app's
 * install page: the app's /slack/install, the double's consent screen approved for one
 * workspace (or an organization's enterprise id, for an org-wide install), and back to the
 * app's /slack/oauth_redirect with the code, which the app exchanges (oauth.v2.access) and
 * keeps. What the stack, the sandbox and the ack bench share.
 */

/** Where an admin's install stopped: the last step that answered, and its answer. */
export interface AdminInstall {
  step: '/slack/install' | 'Slack’s consent screen' | '/slack/oauth_redirect';
  status: number;
  /** The page the step answered with. */
  text: string;
  /** Whether the app kept the installation (its redirect answered 200). */
  installed: boolean;
}

/**
 * Installs the app listening at `appUrl` into `team`; `redirectUri` overrides the one the app
 * asked for (an app without a configured redirect URL).
 */
export async function installAsAdmin(
  appUrl: string,
  team: string,
  options: { redirectUri?: string } = {},
): Promise<AdminInstall> {
  const start = await fetch(`${appUrl}/slack/install`, { redirect: 'manual' });
  const consentAt = start.headers.get('location');
  if (start.status !== 302 || !consentAt) return stopped('/slack/install', start);
  // The install state's cookie, which the app checks when Slack sends the admin back.
  const cookie = start.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  await start.body?.cancel();
  const consent = new URL(consentAt);
  consent.searchParams.set('team', team);
  if (options.redirectUri) consent.searchParams.set('redirect_uri', options.redirectUri);
  const approved = await fetch(consent, { redirect: 'manual' });
  const back = approved.headers.get('location');
  if (approved.status !== 302 || !back) return stopped('Slack’s consent screen', approved);
  await approved.body?.cancel();
  const done = await fetch(back, { headers: { cookie }, redirect: 'manual' });
  const text = await done.text();
  return {
    step: '/slack/oauth_redirect',
    status: done.status,
    text,
    installed: done.status === 200,
  };
}

async function stopped(step: AdminInstall['step'], response: Response): Promise<AdminInstall> {
  return { step, status: response.status, text: await response.text(), installed: false };
}
