/**
 * Slack clients when the app is installed by OAuth: one token per workspace (or per organization
 * for an org-wide install), found per call. Inside a request, the token Bolt's `authorize` found
 * for it (kept for the request's async work by `WorkspaceScope`); outside one (the outbox worker,
 * the mirror's poster, timers), the only installation's token. With several installations such
 * a call fails with `WorkspaceUnknownError`: records do not carry their workspace yet.
 * Slack's Retry-After holds are kept per workspace, as Slack limits each workspace apart.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { type WebAPICallResult, WebClient, type WebClientOptions } from '@slack/web-api';
import type { InstallationRecords } from '../../store/install-types.ts';
import type { ClaimStore, Now } from '../../store/types.ts';
import { SlackMethodHeldError, WorkspaceUnknownError } from '../errors.ts';
import { SlackMethodHolds } from './slack-method-holds.ts';

/** The installation a piece of work runs for. */
export interface WorkspaceAuth {
  token: string;
  /** The team id, or the enterprise id of an org-wide install. */
  workspace: string;
}

/** The request's installation, carried through its async work (listeners, background tasks). */
export class WorkspaceScope {
  readonly #storage = new AsyncLocalStorage<WorkspaceAuth>();

  /** Runs `work` as the installation's. */
  run<T>(auth: WorkspaceAuth, work: () => Promise<T>): Promise<T> {
    return this.#storage.run(auth, work);
  }

  /** The installation of the work in progress, if it runs for a request. */
  current(): WorkspaceAuth | undefined {
    return this.#storage.getStore();
  }
}

// How long the only installation is trusted before the store is read again: short, as a second
// install makes a call outside a request ambiguous. "None" or "several" is never kept.
const ONLY_KEPT_MS = 2_000;

/** Finds the token of each call, and keeps each workspace's holds. */
export class InstalledTokens {
  readonly #scope: WorkspaceScope;
  readonly #installations: Pick<InstallationRecords, 'list' | 'fetchInstallation'>;
  readonly #claims: Pick<ClaimStore, 'claim' | 'complete' | 'get'>;
  readonly #now: Now;
  readonly #holds = new Map<string, SlackMethodHolds>();
  #only: { auth: WorkspaceAuth; at: number } | undefined;

  constructor(options: {
    scope: WorkspaceScope;
    installations: Pick<InstallationRecords, 'list' | 'fetchInstallation'>;
    claims: Pick<ClaimStore, 'claim' | 'complete' | 'get'>;
    now?: Now;
  }) {
    this.#scope = options.scope;
    this.#installations = options.installations;
    this.#claims = options.claims;
    this.#now = options.now ?? Date.now;
  }

  /** The installation this call runs for; WorkspaceUnknownError when it cannot be told. */
  async current(): Promise<WorkspaceAuth> {
    const scoped = this.#scope.current();
    if (scoped) return scoped;
    const now = this.#now();
    if (this.#only && now - this.#only.at <= ONLY_KEPT_MS) return this.#only.auth;
    const all = await this.#installations.list();
    const [first] = all;
    const token = first?.installation.bot?.token;
    const workspace = first?.summary.teamId ?? first?.summary.enterpriseId;
    if (all.length !== 1 || !token || !workspace) throw new WorkspaceUnknownError(all.length);
    this.#only = { auth: { token, workspace }, at: now };
    return this.#only.auth;
  }

  /**
   * Runs `work` with the token of a workspace (team id), or of its organization's org-wide
   * install: for work outside a request that knows whose it is (a record carrying its team).
   * Rejects with the store's InstallationNotFoundError when the app is not installed there.
   */
  async runAs<T>(
    where: { teamId: string; enterpriseId?: string | undefined },
    work: () => Promise<T>,
  ): Promise<T> {
    const installation = await this.#installations.fetchInstallation({
      teamId: where.teamId,
      enterpriseId: where.enterpriseId,
      isEnterpriseInstall: false,
    });
    const token = installation.bot?.token;
    if (!token) throw new WorkspaceUnknownError(0);
    const workspace = installation.isEnterpriseInstall
      ? (installation.enterprise?.id ?? where.teamId)
      : where.teamId;
    return this.#scope.run({ token, workspace }, work);
  }

  /** The Retry-After holds of one workspace. */
  holdsOf(workspace: string): SlackMethodHolds {
    let holds = this.#holds.get(workspace);
    if (!holds) {
      holds = new SlackMethodHolds({ claims: this.#claims, workspace, now: this.#now });
      this.#holds.set(workspace, holds);
    }
    return holds;
  }

  /** Forgets what is kept of a workspace that uninstalled the app (or of every one). */
  forget(workspace?: string): void {
    this.#only = undefined;
    if (workspace === undefined) this.#holds.clear();
    else this.#holds.delete(workspace);
  }
}

/**
 * A Web API client with no token of its own: each call takes the token of its installation
 * (`InstalledTokens`), or the one it was given, and keeps Slack's Retry-After for its workspace.
 */
export class InstalledWebClient extends WebClient {
  readonly #tokens: InstalledTokens;

  constructor(options: WebClientOptions, tokens: InstalledTokens) {
    super(undefined, options);
    this.#tokens = tokens;
  }

  override async apiCall(
    method: string,
    options: Record<string, unknown> = {},
  ): Promise<WebAPICallResult> {
    // A token given with the call (a workflow step's own) is that call's business.
    if (typeof options.token === 'string') return super.apiCall(method, options);
    const { token, workspace } = await this.#tokens.current();
    const holds = this.#tokens.holdsOf(workspace);
    const leftMs = await holds.heldFor(method);
    if (leftMs !== undefined) throw new SlackMethodHeldError(method, Math.ceil(leftMs / 1_000));
    try {
      return await super.apiCall(method, { ...options, token });
    } catch (error) {
      const limited = error as { code?: unknown; retryAfter?: unknown } | null;
      if (
        limited?.code === 'slack_webapi_rate_limited_error' &&
        typeof limited.retryAfter === 'number'
      ) {
        await holds.hold(method, limited.retryAfter);
      }
      throw error;
    }
  }
}
