/**
 * Slack's OAuth v2 exchange, as the double plays it. `GET /oauth/v2/authorize` is the consent
 * screen an admin approves: it sends them back to the app's `redirect_uri` with a code and the
 * app's state, for the workspace named by `team` (the double's first by default), or for the
 * whole organization when `team` is the enterprise id (an org-wide install). `oauth.v2.access`
 * exchanges the code, once, for a new bot token of that workspace or organization, which the
 * Web API then accepts until it is revoked (`revoke`, as an uninstall does).
 */
import { randomBytes } from 'node:crypto';
import type { ApiArgs, ApiResponse } from './web-api/args.ts';
import type { Workspace } from './workspace.ts';

/** A token the exchange gave. */
export interface IssuedToken {
  /** The team id, or the enterprise id of an org-wide install. */
  owner: string;
  orgWide: boolean;
  /** The organization's workspaces (one for a workspace install). */
  workspaces: Workspace[];
  scopes: string[];
  revoked: boolean;
}

interface PendingCode {
  owner: string;
  orgWide: boolean;
  scopes: string[];
  redirectUri: string | undefined;
}

/** The install codes and the tokens they gave. */
export class OAuthExchange {
  readonly #workspaces: readonly Workspace[];
  readonly #codes = new Map<string, PendingCode>();
  readonly #tokens = new Map<string, IssuedToken>();
  /** Every exchange answered, oldest first: owner and whether org-wide (never the token). */
  readonly exchanges: { owner: string; orgWide: boolean; ok: boolean }[] = [];

  /** The app's redirect URL, as its manifest's `redirect_urls` give it to Slack. */
  redirectUrl: string | undefined;

  constructor(workspaces: readonly Workspace[]) {
    this.#workspaces = workspaces;
  }

  /** The consent screen approved at once: where the admin's browser goes next. */
  authorize(url: URL): { status: number; location?: string; error?: string } {
    const redirect = url.searchParams.get('redirect_uri') ?? this.redirectUrl;
    const state = url.searchParams.get('state');
    const team = url.searchParams.get('team') ?? this.#workspaces[0]?.team.id ?? '';
    const orgWide = this.#workspaces.some((each) => each.enterpriseId === team);
    if (!orgWide && !this.#workspaces.some((each) => each.team.id === team)) {
      return { status: 400, error: 'invalid_team' };
    }
    if (!redirect) return { status: 400, error: 'missing_redirect_uri' };
    const code = `code-${randomBytes(12).toString('hex')}`;
    const scopes = (url.searchParams.get('scope') ?? '').split(',').filter(Boolean);
    this.#codes.set(code, { owner: team, orgWide, scopes, redirectUri: redirect });
    const back = new URL(redirect);
    back.searchParams.set('code', code);
    if (state !== null) back.searchParams.set('state', state);
    return { status: 302, location: back.href };
  }

  /** `oauth.v2.access`: a code exchanged once for a bot token. */
  access(args: ApiArgs): ApiResponse {
    const code = typeof args.code === 'string' ? args.code : '';
    const pending = this.#codes.get(code);
    this.#codes.delete(code);
    if (!pending) return { ok: false, error: 'invalid_code' };
    if (typeof args.client_id !== 'string' || typeof args.client_secret !== 'string') {
      return { ok: false, error: 'invalid_client_id' };
    }
    const workspaces = pending.orgWide
      ? this.#workspaces.filter((each) => each.enterpriseId === pending.owner)
      : this.#workspaces.filter((each) => each.team.id === pending.owner);
    const [first] = workspaces;
    if (!first) return { ok: false, error: 'invalid_code' };
    const token = `xoxb-${pending.owner}-${randomBytes(12).toString('hex')}`;
    this.#tokens.set(token, {
      owner: pending.owner,
      orgWide: pending.orgWide,
      workspaces,
      scopes: pending.scopes,
      revoked: false,
    });
    if (pending.orgWide) for (const each of workspaces) each.orgWideInstall = true;
    this.exchanges.push({ owner: pending.owner, orgWide: pending.orgWide, ok: true });
    const enterprise = first.enterpriseId ? { id: first.enterpriseId, name: 'Acme Org' } : null;
    return {
      ok: true,
      access_token: token,
      token_type: 'bot',
      scope: pending.scopes.join(','),
      bot_user_id: first.botUserId,
      app_id: first.appId,
      team: pending.orgWide ? null : { id: first.team.id, name: first.team.name },
      enterprise,
      is_enterprise_install: pending.orgWide,
      authed_user: { id: 'U0ADMIN' },
    };
  }

  /** The workspace a call with this token acts on; undefined for a token the exchange never gave. */
  workspaceOf(
    token: string,
    args: ApiArgs,
  ): { workspace: Workspace; orgWide: boolean; scopes: string[] } | 'revoked' | undefined {
    const issued = this.#tokens.get(token);
    if (!issued) return undefined;
    if (issued.revoked) return 'revoked';
    // An org-wide token acts in the workspace of the channel, user or team it names, or of the
    // trigger it spends (a modal opens where the person acted).
    const channel = typeof args.channel === 'string' ? args.channel : undefined;
    const user = typeof args.user === 'string' ? args.user : undefined;
    const team = typeof args.team_id === 'string' ? args.team_id : undefined;
    const trigger = typeof args.trigger_id === 'string' ? args.trigger_id : undefined;
    const workspace =
      issued.workspaces.find((each) => team !== undefined && each.team.id === team) ??
      issued.workspaces.find((each) => trigger !== undefined && each.issuedTrigger(trigger)) ??
      issued.workspaces.find((each) => channel !== undefined && each.conversation(channel)) ??
      issued.workspaces.find((each) => user !== undefined && each.user(user)) ??
      issued.workspaces[0];
    if (!workspace) return undefined;
    return { workspace, orgWide: issued.orgWide, scopes: issued.scopes };
  }

  /** Whose token it is (team or enterprise id), if the exchange gave it. */
  ownerOf(token: string): string | undefined {
    return this.#tokens.get(token)?.owner;
  }

  /** Revokes every token of a team or organization (as uninstalling the app does). */
  revoke(owner: string): void {
    for (const issued of this.#tokens.values()) {
      if (issued.owner !== owner) continue;
      issued.revoked = true;
      if (issued.orgWide) for (const each of issued.workspaces) each.orgWideInstall = false;
    }
  }
}
