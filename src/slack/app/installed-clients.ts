/**
 * Slack clients when the app is installed by OAuth: one token per workspace (or per organization
 * for an org-wide install), found per call. A call naming a conversation or a person whose home
 * is known (`ConversationHomeBook`: Grid's ids are unique across the organization) is made with
 * the token of that home, inside a request or outside one: a ticket filed in one workspace gets
 * its triage card in a channel of another. Any other call: inside a request, the token Bolt's
 * `authorize` found for it (kept for the request's async work by `WorkspaceScope`); outside one
 * (the outbox worker, the mirror's poster, timers), the only installation's token; with
 * several, a channel no record places (named only in configuration, or kept before homes were)
 * is looked for in each installation in turn, else `WorkspaceUnknownError`. Slack's Retry-After
 * holds are kept per workspace actually called, as Slack limits each workspace apart.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { type WebAPICallResult, WebClient, type WebClientOptions } from '@slack/web-api';
import type { InstallationRecords } from '../../store/install-types.ts';
import type { ClaimStore, Now } from '../../store/types.ts';
import {
  SlackMethodHeldError,
  slackErrorOf,
  WorkspaceUninstalledError,
  WorkspaceUnknownError,
} from '../errors.ts';
import type { ConversationHomeBook } from './conversation-homes.ts';
import { SlackMethodHolds } from './slack-method-holds.ts';

/** The installation a piece of work runs for. */
export interface WorkspaceAuth {
  token: string;
  /** The team id, or the enterprise id of an org-wide install. */
  workspace: string;
  /**
   * The person whose request this work is for: a member of this workspace whatever home they
   * were last noted with (a person in two workspaces is answered in the one they act in).
   */
  actor?: string | undefined;
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
// How long the list of installations is trusted when a home's token is looked for.
const LIST_KEPT_MS = 2_000;
// How many ids of uninstalled workspaces are remembered, to fail their calls at once.
const MAX_GONE = 20_000;
// Calls naming no conversation or person that any installation of the organization answers
// alike, asked of each in turn outside a request when there are several.
const ASKED_OF_EACH: ReadonlySet<string> = new Set(['users.lookupByEmail']);
// How long a channel looked for in each installation is not looked for again in this process
// (found, missed or failed): a channel in no workspace must not cost a call per installation
// for each write that names it.
const LOOKED_KEPT_MS = 60_000;
// How many channels looked for are remembered before the memory starts afresh.
const MAX_LOOKED = 5_000;
// A conversation's id (not a name, nor a person's id), as a call's `channel` may give it.
const CHANNEL_ID = /^[CGD][A-Z0-9]{2,}$/;
// Slack's answers of a workspace the channel does not live in (or that cannot see it).
const NOT_HERE: ReadonlySet<string> = new Set(['channel_not_found', 'not_in_channel']);

/**
 * The conversations, people and user groups a Web API call names, in the order they tell its
 * workspace.
 */
export function idsNamedBy(args: Record<string, unknown>): string[] {
  const ids: string[] = [];
  for (const name of ['channel', 'channel_id', 'user', 'user_id', 'usergroup']) {
    const value = args[name];
    if (typeof value === 'string' && value !== '') ids.push(value);
  }
  const users = args.users;
  if (typeof users === 'string') ids.push(...users.split(',').filter((id) => id !== ''));
  else if (Array.isArray(users)) {
    ids.push(...users.filter((id): id is string => typeof id === 'string' && id !== ''));
  }
  return ids;
}

/** The channel a Web API call names by id (`channel`, else `channel_id`), if any. */
export function channelNamedBy(args: Record<string, unknown>): string | undefined {
  for (const name of ['channel', 'channel_id']) {
    const value = args[name];
    if (typeof value === 'string' && CHANNEL_ID.test(value)) return value;
  }
  return undefined;
}

/** What was learnt the last time a channel was looked for in each installation. */
interface Looked {
  at: number;
  /** Where it was found; unset: found nowhere, or some workspace failed to answer. */
  home?: string;
  /** Some workspace failed (429, 500) rather than said "not here". */
  failed?: boolean;
}

/** Finds the token of each call, and keeps each workspace's holds. */
export class InstalledTokens {
  readonly #scope: WorkspaceScope;
  readonly #installations: Pick<InstallationRecords, 'list' | 'fetchInstallation'>;
  readonly #claims: Pick<ClaimStore, 'claim' | 'complete' | 'get'>;
  readonly #now: Now;
  readonly #holds = new Map<string, SlackMethodHolds>();
  readonly #homes: Pick<ConversationHomeBook, 'homeOf' | 'note'> | undefined;
  // Ids of workspaces that uninstalled the app in this process: their calls fail at once.
  readonly #gone = new Map<string, string>();
  // Workspaces uninstalled while work begun for them (a request, a loop over installations)
  // may still be running: their calls stop at once rather than go out with a revoked token.
  readonly #uninstalled = new Set<string>();
  // Channels looked for in each installation lately, and the lookups under way (one each).
  readonly #looked = new Map<string, Looked>();
  readonly #looking = new Map<string, Promise<WorkspaceAuth>>();
  #only: { auth: WorkspaceAuth; at: number } | undefined;
  #listed: { all: Awaited<ReturnType<InstallationRecords['list']>>; at: number } | undefined;

  constructor(options: {
    scope: WorkspaceScope;
    installations: Pick<InstallationRecords, 'list' | 'fetchInstallation'>;
    claims: Pick<ClaimStore, 'claim' | 'complete' | 'get'>;
    /** Where conversations and people live; unset: every call as its request's or the only. */
    homes?: Pick<ConversationHomeBook, 'homeOf' | 'note'>;
    now?: Now;
  }) {
    this.#scope = options.scope;
    this.#installations = options.installations;
    this.#claims = options.claims;
    this.#homes = options.homes;
    this.#now = options.now ?? Date.now;
  }

  /**
   * The installation this call runs for: the home's of the first conversation or person it
   * names (`args`) whose home is known, else the request's, else the only one's;
   * WorkspaceUnknownError when it cannot be told, WorkspaceUninstalledError when the home has
   * no installation any more.
   */
  async current(args: Record<string, unknown> = {}): Promise<WorkspaceAuth> {
    const scoped = this.#scope.current();
    if (scoped && this.#uninstalled.has(scoped.workspace)) {
      throw new WorkspaceUninstalledError(scoped.workspace, scoped.workspace);
    }
    const homed = await this.#homeAuth(args, scoped);
    if (homed) return homed;
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

  /**
   * Forgets what is kept of a workspace that uninstalled the app (or of every one); `ids`, the
   * conversations and people that lived there, fail their calls at once from now on.
   */
  forget(workspace?: string, ids: readonly string[] = []): void {
    this.#only = undefined;
    this.#listed = undefined;
    if (workspace === undefined) this.#holds.clear();
    else this.#holds.delete(workspace);
    // A channel found there is looked for afresh; one missed may be found elsewhere now.
    this.#looked.clear();
    if (workspace === undefined) return;
    this.#uninstalled.add(workspace);
    if (this.#gone.size + ids.length > MAX_GONE) this.#gone.clear();
    for (const id of ids) this.#gone.set(id, workspace);
  }

  /**
   * The installation of a channel no record places, outside a request with several
   * installations: each is asked in turn with `ask` (a read-only call, so asking twice has no
   * effect twice), which answers whether the channel is there or throws when Slack failed (a
   * 429 holds that workspace, and the next is asked). The first that has it is noted as its
   * home. Found nowhere: WorkspaceUnknownError naming the channel; nowhere but some failed:
   * that failure, so the caller retries. One lookup per channel at a time, and at most one per
   * channel a minute: meanwhile a miss fails at once, a failure as held until the minute ends.
   */
  locate(channel: string, ask: (auth: WorkspaceAuth) => Promise<boolean>): Promise<WorkspaceAuth> {
    const pending = this.#looking.get(channel);
    if (pending) return pending;
    const looking = this.#locate(channel, ask).finally(() => this.#looking.delete(channel));
    this.#looking.set(channel, looking);
    return looking;
  }

  async #locate(
    channel: string,
    ask: (auth: WorkspaceAuth) => Promise<boolean>,
  ): Promise<WorkspaceAuth> {
    const every = await this.every();
    const started = this.#now();
    const looked = this.#looked.get(channel);
    if (looked && started - looked.at < LOOKED_KEPT_MS) {
      const found = looked.home === undefined ? undefined : await this.#authOf(looked.home);
      if (found) return found;
      if (looked.failed) {
        const leftMs = LOOKED_KEPT_MS - (started - looked.at);
        throw new SlackMethodHeldError('conversations.info', Math.ceil(leftMs / 1_000));
      }
      throw new WorkspaceUnknownError(every.length, channel);
    }
    if (this.#looked.size >= MAX_LOOKED) this.#looked.clear();
    let failed: unknown;
    for (const auth of every) {
      let here: boolean;
      try {
        here = await ask(auth);
      } catch (error) {
        failed ??= error;
        continue;
      }
      if (!here) continue;
      this.#looked.set(channel, { at: started, home: auth.workspace });
      // A home not written is looked for again by another replica, or here in a minute; the
      // call goes on with the token found all the same.
      await this.#homes?.note(channel, auth.workspace).catch(() => undefined);
      return auth;
    }
    this.#looked.set(channel, { at: started, failed: failed !== undefined });
    throw failed ?? new WorkspaceUnknownError(every.length, channel);
  }

  /**
   * Whether `id` has no known home while several installations could hold it (so a call naming
   * it may go to the wrong workspace).
   */
  async unplaced(id: string): Promise<boolean> {
    if (!this.#homes || (await this.#homes.homeOf(id)) !== undefined) return false;
    return (await this.every()).length > 1;
  }

  /** Every installation's token and workspace, oldest installation first. */
  async every(): Promise<WorkspaceAuth[]> {
    const { all } = await this.#installationList(false);
    const auths: WorkspaceAuth[] = [];
    for (const kept of [...all].sort((a, b) => a.summary.installedAt - b.summary.installedAt)) {
      const token = kept.installation.bot?.token;
      const workspace =
        kept.summary.kind === 'org' ? kept.summary.enterpriseId : kept.summary.teamId;
      if (token && workspace) auths.push({ token, workspace });
    }
    return auths;
  }

  /** Drops what is kept of the installations: one was just stored. */
  installed(): void {
    this.#only = undefined;
    this.#listed = undefined;
    // A workspace may have installed again; work begun since has its new token.
    this.#uninstalled.clear();
    // A channel missed may live in the workspace just installed.
    this.#looked.clear();
  }

  // The installation of the home of what the call names, when that is known and is not the
  // request's own workspace (whose token serves it already).
  async #homeAuth(
    args: Record<string, unknown>,
    scoped: WorkspaceAuth | undefined,
  ): Promise<WorkspaceAuth | undefined> {
    if (!this.#homes) return undefined;
    for (const id of idsNamedBy(args)) {
      const gone = this.#gone.get(id);
      if (gone !== undefined) throw new WorkspaceUninstalledError(id, gone);
      if (scoped && id === scoped.actor) return scoped;
      const home = await this.#homes.homeOf(id);
      if (home === undefined) continue;
      if (home === scoped?.workspace) return scoped;
      const auth = await this.#authOf(home);
      if (!auth) throw new WorkspaceUninstalledError(id, home);
      return auth;
    }
    return undefined;
  }

  // The token of a workspace (team id) or organization (enterprise id) from the installations;
  // a team with no installation of its own is served by its organization's org-wide install.
  async #authOf(home: string): Promise<WorkspaceAuth | undefined> {
    const kept = await this.#installationList(false);
    // A workspace installed in another process a moment ago: the list is read afresh before
    // its calls are failed for good.
    return (
      authIn(kept.all, home) ??
      (kept.fresh ? undefined : authIn((await this.#installationList(true)).all, home))
    );
  }

  async #installationList(
    fresh: boolean,
  ): Promise<{ all: Awaited<ReturnType<InstallationRecords['list']>>; fresh: boolean }> {
    const now = this.#now();
    if (!fresh && this.#listed && now - this.#listed.at <= LIST_KEPT_MS) {
      return { all: this.#listed.all, fresh: false };
    }
    this.#listed = { all: await this.#installations.list(), at: now };
    return { all: this.#listed.all, fresh: true };
  }
}

// The token of `home` among the installations: its own, or its organization's org-wide one.
function authIn(
  all: Awaited<ReturnType<InstallationRecords['list']>>,
  home: string,
): WorkspaceAuth | undefined {
  const own = all.find((kept) =>
    kept.summary.kind === 'org' ? kept.summary.enterpriseId === home : kept.summary.teamId === home,
  );
  const orgs = all.filter((kept) => kept.summary.kind === 'org');
  const found = own ?? (orgs.length === 1 && home.startsWith('T') ? orgs[0] : undefined);
  const token = found?.installation.bot?.token;
  if (!found || !token) return undefined;
  const workspace = found.summary.kind === 'org' ? (found.summary.enterpriseId ?? home) : home;
  return { token, workspace };
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
    // A workspace's user group (the agents') is read only in its workspace, whoever asks and
    // from where: found once by asking each installation, as a channel no record places.
    const group = method === 'usergroups.users.list' ? options.usergroup : undefined;
    if (typeof group === 'string' && (await this.#tokens.unplaced(group))) {
      const auth = await this.#tokens.locate(group, (each) => this.#readsGroup(each, group));
      return this.#callAs(auth, method, options);
    }
    let auth: WorkspaceAuth;
    try {
      auth = await this.#tokens.current(options);
    } catch (error) {
      if (!(error instanceof WorkspaceUnknownError)) throw error;
      // A person looked for by email, outside any request: Grid's user ids are the
      // organization's, so whichever workspace knows them gives the right one.
      if (ASKED_OF_EACH.has(method)) return this.#askEach(method, options, error);
      // A channel no record places, with several installations: the one that sees it.
      const channel = channelNamedBy(options);
      if (channel === undefined || error.installations < 2) throw error;
      auth = await this.#tokens.locate(channel, (each) => this.#sees(each, channel));
    }
    return this.#callAs(auth, method, options);
  }

  async #callAs(
    { token, workspace }: WorkspaceAuth,
    method: string,
    options: Record<string, unknown>,
  ): Promise<WebAPICallResult> {
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

  // Whether the channel is seen from the installation: "not found" or "not in channel" says it
  // lives elsewhere; any other failure (a 429, now held there, or a 500) is thrown.
  async #sees(auth: WorkspaceAuth, channel: string): Promise<boolean> {
    try {
      return (await this.#callAs(auth, 'conversations.info', { channel })).ok === true;
    } catch (error) {
      if (NOT_HERE.has(slackErrorOf(error) ?? '')) return false;
      throw error;
    }
  }

  // Whether the installation's workspace holds the user group ("no such subteam": elsewhere).
  async #readsGroup(auth: WorkspaceAuth, usergroup: string): Promise<boolean> {
    try {
      return (await this.#callAs(auth, 'usergroups.users.list', { usergroup })).ok === true;
    } catch (error) {
      if (slackErrorOf(error) === 'no_such_subteam') return false;
      throw error;
    }
  }

  // Asks each installation in turn until one knows the person. A workspace that is held or
  // fails is passed over; when none answers, its failure (else Slack's "not found") is thrown,
  // so a 429 is still seen as one by the caller.
  async #askEach(
    method: string,
    options: Record<string, unknown>,
    unknown: WorkspaceUnknownError,
  ): Promise<WebAPICallResult> {
    const every = await this.#tokens.every();
    if (every.length === 0) throw unknown;
    let failed: unknown;
    let notFound: unknown;
    for (const auth of every) {
      try {
        return await this.#callAs(auth, method, options);
      } catch (error) {
        if (slackErrorOf(error) === 'users_not_found') notFound ??= error;
        else failed ??= error;
      }
    }
    throw failed ?? notFound;
  }
}
