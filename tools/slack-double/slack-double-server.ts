/**
 * The Slack double: a real HTTP server that answers the Web API methods the app calls (point
 * Bolt's `clientOptions.slackApiUrl` at `apiUrl`), serves the response_urls the driver hands
 * out, and records every call so tests can assert on what the app did in Slack.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  defaultWorkspaceSeed,
  nthWorkspaceSeed,
  orgWideChannelSeed,
  secondIds,
  secondWorkspaceSeed,
  type WorkspaceSeed,
} from './default-workspace.ts';
import { ContractViolationError, DoubleClosedError, WaitTimeoutError } from './errors.ts';
import { OAuthExchange } from './oauth-exchange.ts';
import {
  applyResponseUrlPost,
  type ResponseUrlContext,
  type ResponseUrlEffect,
} from './response-url.ts';
import { SocketModeServer } from './socket-mode.ts';
import {
  argumentProblem,
  type ContractProblem,
  methodProblem,
  readWebApiDescription,
  type WebApiDescription,
} from './web-api/api-description.ts';
import { type ApiArgs, type ApiMethod, type ApiResponse, fail } from './web-api/args.ts';
import { functionsMethods } from './web-api/functions-methods.ts';
import { webApiMethods } from './web-api/method-table.ts';
import { WorkflowRuns } from './workflow-runs.ts';
import { Workspace } from './workspace.ts';

/** How to start the double. Everything has a default. */
export interface SlackDoubleOptions {
  /** Loopback by default. */
  host?: string;
  /** 0 (any free port) by default. */
  port?: number;
  /** Replaces parts of the default workspace (team, users, channels, usergroups...). */
  seed?: Partial<WorkspaceSeed>;
  /** The bot token the Web API accepts; `xoxb-test-token` by default. */
  botToken?: string;
  /** The clock (ms since the epoch) for message ts, trigger expiry and call times. */
  now?: () => number;
  /** How long a trigger id lives; Slack's 3 seconds by default. */
  triggerTtlMs?: number;
  /** Slack accepts five posts to one response_url. */
  responseUrlMaxUses?: number;
  /** Request bodies above this are refused with 413. */
  bodyLimitBytes?: number;
  /** The app-level token `apps.connections.open` (Socket Mode) accepts; `xapp-1-test-token` by default. */
  appToken?: string;
  /** The bot token's scopes, sent as `x-oauth-scopes` on every Web API answer as Slack does; none by default. */
  oauthScopes?: readonly string[];
  /**
   * Whether `close` throws `ContractViolationError` when the app sent a call Slack's Web API
   * description does not know (a method, an argument, a missing required one), even one whose
   * refusal the app swallowed; true by default, so the test that sent it fails.
   */
  throwOnViolations?: boolean;
  /**
   * Slack's Web API description the double checks calls against; the vendored
   * `vendor/slack/slack-api-specs.trimmed.json` by default. Read at start: when it is missing,
   * `startSlackDouble` rejects with `ApiDescriptionMissingError` and nothing listens.
   */
  apiDescriptionPath?: string;
  /**
   * The app's `unfurl_domains`: a message posted with links on them (or their subdomains) sends
   * `link_shared`, and `chat.unfurl` may unfurl those links. None by default.
   */
  unfurlDomains?: readonly string[];
  /**
   * An Enterprise Grid organization: the default workspace and a second one (`secondIds`, or
   * its own seed) under one enterprise id, and the OAuth exchange (`oauth.v2.access`) answered
   * for either, or for the organization. Off by default: one workspace, one bot token.
   * `workspaces` (2 by default) adds workspaces 3 to N (`nthWorkspaceSeed`), to model a large
   * organization (the ack bench's 20).
   */
  organization?: { enterpriseId?: string; second?: Partial<WorkspaceSeed>; workspaces?: number };
}

/** One Web API call the app made, with the double's answer. The token is never recorded. */
export interface RecordedCall {
  method: string;
  args: ApiArgs;
  /** When it was answered, by the double's clock. */
  at: number;
  status: number;
  response: ApiResponse;
  /** True when the answer was a failure set up with `failNext`. */
  injected: boolean;
  /** Set when Slack's description does not know the call (`unknown_method`, ...): what is wrong. */
  violation?: string;
  /**
   * Whose token the call carried: the team id of a workspace's bot token, the enterprise id of
   * an org-wide install's; unset without a known token.
   */
  tokenOf?: string;
}

/** One POST the app made to a response_url. */
export interface ResponseUrlPost {
  id: string;
  url: string;
  body: unknown;
  at: number;
  status: number;
  effect: ResponseUrlEffect;
  context: ResponseUrlContext;
  /** The message or ephemeral message it posted or replaced. */
  ts?: string;
}

/** A failure to answer instead of running the method. */
export interface InjectedFailure {
  /** How many calls in a row fail; 1 by default. */
  times?: number;
  /** The HTTP status; 429 for `ratelimited` (with Retry-After), else 200 like Slack. */
  status?: number;
  /** Seconds in the Retry-After header of a `ratelimited` answer; 1 by default. */
  retryAfterSec?: number;
  /** Only calls whose arguments this accepts fail (e.g. the second part of a long message). */
  when?: (args: ApiArgs) => boolean;
}

interface PendingFailure {
  error: string;
  status: number;
  retryAfterSec: number;
  remaining: number;
  when: ((args: ApiArgs) => boolean) | undefined;
}

/** The answer of a failure a test asked for: Slack's error, and a 429's Retry-After. */
function injectedFailure(failure: PendingFailure): {
  status: number;
  response: ApiResponse;
  injected: boolean;
  headers: Record<string, string>;
} {
  return {
    status: failure.status,
    response: { ok: false, error: failure.error },
    injected: true,
    headers: failure.status === 429 ? { 'retry-after': String(failure.retryAfterSec) } : {},
  };
}

interface Waiter<T> {
  test: (item: T) => boolean;
  resolve: (item: T) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
  what: string;
}

interface ResponseUrlRecord {
  context: ResponseUrlContext;
  uses: number;
}

type ParsedBody = { args: ApiArgs } | { error: string };

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

function parseBody(contentType: string | undefined, raw: string): ParsedBody {
  const mime = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (raw === '') return { args: {} };
  if (mime === 'application/json') {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        return { error: 'invalid_json' };
      }
      return { args: parsed as ApiArgs };
    } catch {
      return { error: 'invalid_json' };
    }
  }
  if (mime.startsWith('multipart/')) return { error: 'invalid_form_data' };
  return { args: Object.fromEntries(new URLSearchParams(raw)) };
}

function bearerToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1];
}

function send(res: ServerResponse, status: number, body: unknown, headers = {}): void {
  res.writeHead(status, { ...JSON_HEADERS, ...headers });
  res.end(JSON.stringify(body));
}

/** A running Slack double. Start one with `startSlackDouble`. */
export class SlackDouble {
  /** The workspace state, shared with the driver. */
  readonly workspace: Workspace;
  /** Every workspace: the default one first, the organization's second after it. */
  readonly workspaces: readonly Workspace[];
  /** The OAuth exchange: install codes and the tokens they gave. */
  readonly oauth: OAuthExchange;
  /** Every Web API call so far, oldest first. */
  readonly calls: RecordedCall[] = [];
  /** Every POST to a response_url so far, oldest first. */
  readonly responseUrlPosts: ResponseUrlPost[] = [];
  /** Workflow Builder runs of the app's steps, started by the driver and completed by the app. */
  readonly runs: WorkflowRuns;
  // Methods acting on the double's own state beside the workspace (the runs).
  readonly #ownMethods: ReadonlyMap<string, ApiMethod>;
  /** Socket Mode: the WebSocket side an app with an app-level token connects to. */
  readonly socketMode: SocketModeServer;
  readonly #oauthScopes: readonly string[] | undefined;
  readonly #throwOnViolations: boolean;
  readonly #description: WebApiDescription;
  readonly #server: Server;
  readonly #maxResponseUrlUses: number;
  readonly #bodyLimit: number;
  readonly #failures = new Map<string, PendingFailure[]>();
  readonly #responseUrls = new Map<string, ResponseUrlRecord>();
  readonly #callWaiters = new Set<Waiter<RecordedCall>>();
  readonly #postWaiters = new Set<Waiter<ResponseUrlPost>>();
  readonly #activityListeners = new Set<() => void>();
  #url = '';
  #closed = false;

  private constructor(
    workspaces: readonly [Workspace, ...Workspace[]],
    maxResponseUrlUses: number,
    bodyLimit: number,
    socket: { appToken: string; oauthScopes: readonly string[] | undefined },
    throwOnViolations: boolean,
    description: WebApiDescription,
  ) {
    const [workspace] = workspaces;
    this.workspace = workspace;
    this.workspaces = workspaces;
    this.oauth = new OAuthExchange(workspaces);
    this.runs = new WorkflowRuns(() => workspace.now());
    this.#ownMethods = new Map(Object.entries(functionsMethods(this.runs)));
    this.#throwOnViolations = throwOnViolations;
    this.#description = description;
    this.socketMode = new SocketModeServer({ workspace, appToken: socket.appToken });
    this.#oauthScopes = socket.oauthScopes;
    this.#maxResponseUrlUses = maxResponseUrlUses;
    this.#bodyLimit = bodyLimit;
    this.#server = createServer((req, res) => {
      this.#handle(req, res).catch((error: unknown) => {
        // A fault in the double itself: answered as Slack's 500, and printed so the run says why.
        console.error(`slack-double: answering ${req.method} ${req.url} failed:`, error);
        if (!res.headersSent) send(res, 500, { ok: false, error: 'internal_error' });
        else res.destroy();
      });
    });
  }

  /** Starts a double; `startSlackDouble` is the usual way in. */
  static async start(options: SlackDoubleOptions = {}): Promise<SlackDouble> {
    // First, before anything listens: without Slack's description every call would fail.
    const description = readWebApiDescription(options.apiDescriptionPath);
    const seed: WorkspaceSeed = { ...defaultWorkspaceSeed(), ...options.seed };
    if (options.botToken !== undefined) seed.botToken = options.botToken;
    const workspace = new Workspace(seed, {
      ...(options.now ? { now: options.now } : {}),
      ...(options.triggerTtlMs !== undefined ? { triggerTtlMs: options.triggerTtlMs } : {}),
    });
    if (options.unfurlDomains) workspace.setUnfurlDomains(options.unfurlDomains);
    const workspaces: [Workspace, ...Workspace[]] = [workspace];
    if (options.organization) {
      const enterpriseId = options.organization.enterpriseId ?? secondIds.enterprise;
      const clock = {
        ...(options.now ? { now: options.now } : {}),
        ...(options.triggerTtlMs !== undefined ? { triggerTtlMs: options.triggerTtlMs } : {}),
        // One run of message timestamps for the organization: its workspaces share channels.
        timestamps: { lastMicros: 0 },
      };
      // Both workspaces have the org-wide channel, one and the same, with each one's bot and
      // people.
      const second = { ...secondWorkspaceSeed(), ...options.organization.second, enterpriseId };
      const orgWide = (of: WorkspaceSeed) =>
        orgWideChannelSeed(of.users.filter((user) => !user.deleted).map((user) => user.id));
      workspaces[0] = new Workspace(
        { ...seed, enterpriseId, channels: [...seed.channels, orgWide(seed)] },
        clock,
      );
      const secondWorkspace = new Workspace(
        { ...second, channels: [...second.channels, orgWide(second)] },
        clock,
      );
      secondWorkspace.shareConversation(secondIds.orgWide, workspaces[0]);
      workspaces.push(secondWorkspace);
      for (let n = 3; n <= (options.organization.workspaces ?? 2); n++) {
        workspaces.push(new Workspace({ ...nthWorkspaceSeed(n), enterpriseId }, clock));
      }
      if (options.unfurlDomains) {
        for (const each of workspaces) each.setUnfurlDomains(options.unfurlDomains);
      }
    }
    const double = new SlackDouble(
      workspaces,
      options.responseUrlMaxUses ?? 5,
      options.bodyLimitBytes ?? 5 * 1024 * 1024,
      { appToken: options.appToken ?? 'xapp-1-test-token', oauthScopes: options.oauthScopes },
      options.throwOnViolations ?? true,
      description,
    );
    const server = double.#server;
    const host = options.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const { port } = server.address() as AddressInfo;
    double.#url = `http://${host}:${port}`;
    double.socketMode.attach(server, double.#url);
    return double;
  }

  /** `http://127.0.0.1:<port>`. */
  get url(): string {
    return this.#url;
  }

  /** The Web API base for `clientOptions.slackApiUrl`; ends with `/api/`. */
  get apiUrl(): string {
    return `${this.#url}/api/`;
  }

  /**
   * The calls Slack's Web API description does not know, one line each, and forgets them: for
   * a test that sends such a call on purpose, so that `close` does not throw for it.
   */
  takeViolations(): string[] {
    const lines = this.#violationLines();
    for (const call of this.calls) delete call.violation;
    return lines;
  }

  #violationLines(): string[] {
    return this.calls.flatMap((call) =>
      call.violation ? [`${call.method}: ${call.violation}`] : [],
    );
  }

  /** The calls to one method, oldest first. */
  callsTo(method: string): RecordedCall[] {
    return this.calls.filter((call) => call.method === method);
  }

  /**
   * The first call to the method (already made or still to come) that the predicate accepts.
   * Rejects with `WaitTimeoutError` after `timeoutMs`.
   */
  waitForCall(
    method: string,
    predicate: (call: RecordedCall) => boolean = () => true,
    timeoutMs = 5000,
  ): Promise<RecordedCall> {
    const test = (call: RecordedCall) => call.method === method && predicate(call);
    return this.#wait(this.calls, this.#callWaiters, test, timeoutMs, `a call to ${method}`);
  }

  /** The first POST to a response_url (made or to come) the predicate accepts; bounded. */
  waitForResponseUrlPost(
    predicate: (post: ResponseUrlPost) => boolean = () => true,
    timeoutMs = 5000,
  ): Promise<ResponseUrlPost> {
    return this.#wait(
      this.responseUrlPosts,
      this.#postWaiters,
      predicate,
      timeoutMs,
      'a response_url post',
    );
  }

  #wait<T>(
    seen: readonly T[],
    waiters: Set<Waiter<T>>,
    test: (item: T) => boolean,
    timeoutMs: number,
    what: string,
  ): Promise<T> {
    const found = seen.find(test);
    if (found !== undefined) return Promise.resolve(found);
    if (this.#closed) return Promise.reject(new DoubleClosedError(what));
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter<T> = {
        test,
        resolve,
        reject,
        what,
        timer: setTimeout(() => {
          waiters.delete(waiter);
          reject(new WaitTimeoutError(what, timeoutMs));
        }, timeoutMs),
      };
      waiters.add(waiter);
    });
  }

  #notify<T>(waiters: Set<Waiter<T>>, item: T): void {
    for (const waiter of waiters) {
      if (!waiter.test(item)) continue;
      clearTimeout(waiter.timer);
      waiters.delete(waiter);
      waiter.resolve(item);
    }
  }

  /**
   * Makes the next call(s) to the method answer `{ ok: false, error }` without running it, e.g.
   * `failNext('chat.postMessage', 'ratelimited')`. Failures queue up in order.
   */
  failNext(method: string, error: string, options: InjectedFailure = {}): void {
    const queue = this.#failures.get(method) ?? [];
    queue.push({
      error,
      status: options.status ?? (error === 'ratelimited' ? 429 : 200),
      retryAfterSec: options.retryAfterSec ?? 1,
      remaining: Math.max(1, options.times ?? 1),
      when: options.when,
    });
    this.#failures.set(method, queue);
  }

  /**
   * Calls `listener` after every Web API call and response_url post the app makes, so a viewer
   * (the sandbox's page) can refresh as soon as the app changed something. Returns the unsubscribe.
   */
  onActivity(listener: () => void): () => void {
    this.#activityListeners.add(listener);
    return () => this.#activityListeners.delete(listener);
  }

  #activity(): void {
    for (const listener of this.#activityListeners) listener();
  }

  /** A trigger id for an interaction by this user, valid for `triggerTtlMs`, usable once. */
  issueTrigger(userId: string): string {
    return this.workspace.issueTrigger(userId);
  }

  /** A new response_url for an interaction; POSTs to it act on the workspace. */
  issueResponseUrl(context: ResponseUrlContext): string {
    const id = randomBytes(12).toString('hex');
    this.#responseUrls.set(id, { context: { ...context }, uses: 0 });
    return `${this.url}/response/${id}`;
  }

  /**
   * Stops the server and rejects whoever is still waiting. Safe to call twice. Then throws
   * `ContractViolationError` when the app sent calls Slack's description does not know (unless
   * started with `throwOnViolations: false`).
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#activityListeners.clear();
    for (const waiters of [this.#callWaiters, this.#postWaiters] as Set<Waiter<never>>[]) {
      for (const waiter of waiters) {
        clearTimeout(waiter.timer);
        waiter.reject(new DoubleClosedError(waiter.what));
      }
      waiters.clear();
    }
    await this.socketMode.close();
    await new Promise<void>((resolve) => {
      this.#server.close(() => resolve());
      this.#server.closeAllConnections();
    });
    const violations = this.#violationLines();
    if (this.#throwOnViolations && violations.length > 0) {
      throw new ContractViolationError(violations);
    }
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.#url);
    const raw = await readBody(req, this.#bodyLimit);
    if (raw === undefined) {
      send(res, 413, { ok: false, error: 'request_too_large' });
      return;
    }
    if (url.pathname.startsWith('/api/')) {
      this.#handleApi(req, res, url, raw);
      return;
    }
    if (req.method === 'GET' && url.pathname === '/oauth/v2/authorize') {
      const answer = this.oauth.authorize(url);
      res.writeHead(answer.status, answer.location ? { location: answer.location } : JSON_HEADERS);
      res.end(answer.location ? '' : JSON.stringify({ ok: false, error: answer.error }));
      return;
    }
    const responseMatch = /^\/response\/([0-9a-f]+)$/.exec(url.pathname);
    if (req.method === 'POST' && responseMatch?.[1] !== undefined) {
      this.#handleResponseUrl(res, url, responseMatch[1], raw);
      return;
    }
    send(res, 404, { ok: false, error: 'not_found' });
  }

  #handleApi(req: IncomingMessage, res: ServerResponse, url: URL, raw: string): void {
    const method = decodeURIComponent(url.pathname.slice('/api/'.length));
    const parsed = parseBody(req.headers['content-type'], raw);
    const { token: bodyToken, ...args }: ApiArgs = {
      ...Object.fromEntries(url.searchParams),
      ...('args' in parsed ? parsed.args : {}),
    };
    const token = bearerToken(req) ?? (typeof bodyToken === 'string' ? bodyToken : undefined);
    const { status, response, injected, headers, violation } = this.#answerApi(
      method,
      args,
      token,
      parsed,
    );
    const tokenOf = token === undefined ? undefined : this.#ownerOf(token);
    const call: RecordedCall = {
      method,
      args,
      at: this.workspace.now(),
      status,
      response,
      injected,
      ...(violation ? { violation } : {}),
      ...(tokenOf ? { tokenOf } : {}),
    };
    this.calls.push(call);
    send(res, status, response, headers);
    this.#notify(this.#callWaiters, call);
    this.#activity();
  }

  #answerApi(
    method: string,
    args: ApiArgs,
    token: string | undefined,
    parsed: ParsedBody,
  ): {
    status: number;
    response: ApiResponse;
    injected: boolean;
    headers: Record<string, string>;
    violation?: string;
  } {
    const plain = (response: ApiResponse) => ({
      status: 200,
      response,
      injected: false,
      headers: {},
    });
    if ('error' in parsed) return plain({ ok: false, error: parsed.error });
    const refuse = (problem: ContractProblem) => ({
      ...plain(fail(problem.error, [problem.message])),
      violation: problem.message,
    });
    // Slack's own description (`web-api/api-description.ts`): a method it does not have, then
    // the token, then the arguments (an unknown one, which Slack ignores, is refused so that
    // the app's mistake shows).
    const unknownMethod = methodProblem(this.#description, method);
    if (unknownMethod) return refuse(unknownMethod);
    const implementation = this.#ownMethods.get(method) ?? webApiMethods.get(method);
    // The one method that takes the app-level token rather than the bot token.
    if (method === 'apps.connections.open') {
      const problem = argumentProblem(this.#description, method, args);
      return problem ? refuse(problem) : plain(this.socketMode.open(token));
    }
    // The code exchange is authenticated by the client's id and secret, not a token.
    if (method === 'oauth.v2.access') {
      const problem = argumentProblem(this.#description, method, args);
      if (problem) return refuse(problem);
      const failure = this.#takeFailure(method, args);
      if (failure) return injectedFailure(failure);
      return plain(this.oauth.access(args));
    }
    if (!implementation) {
      const gap = `[ERROR] the Slack double does not implement ${method}, which Slack has`;
      return { ...plain(fail('unknown_method', [gap])), violation: gap };
    }
    if (token === undefined || token === '') return plain({ ok: false, error: 'not_authed' });
    // An installed organization's or another workspace's token acts on its own workspace.
    const installed = this.oauth.workspaceOf(token, args);
    if (installed === 'revoked') return plain({ ok: false, error: 'token_revoked' });
    if (installed === undefined && this.workspaces.length > 1) {
      const own = this.workspaces.find((each) => each.botToken === token);
      if (own && own !== this.workspace) {
        const argumentsWrong = argumentProblem(this.#description, method, args);
        if (argumentsWrong) return refuse(argumentsWrong);
        const failure = this.#takeFailure(method, args);
        if (failure) return injectedFailure(failure);
        return { ...plain(implementation(own, args)), headers: {} };
      }
    }
    if (installed !== undefined) {
      const argumentsWrong = argumentProblem(this.#description, method, args);
      if (argumentsWrong) return refuse(argumentsWrong);
      const failure = this.#takeFailure(method, args);
      if (failure) return injectedFailure(failure);
      const answer = implementation(installed.workspace, args);
      if (method === 'auth.test' && installed.orgWide && answer.ok) {
        answer.is_enterprise_install = true;
        answer.enterprise_id = installed.workspace.enterpriseId ?? null;
      }
      return { ...plain(answer), headers: { 'x-oauth-scopes': installed.scopes.join(',') } };
    }
    if (token !== this.workspace.botToken) {
      // A workflow step run's own token works while the run is in progress, as Slack's does.
      const run = this.runs.tokenState(token);
      if (run === 'revoked') return plain({ ok: false, error: 'token_revoked' });
      if (run === 'expired') return plain({ ok: false, error: 'token_expired' });
      if (run === 'unknown') return plain({ ok: false, error: 'invalid_auth' });
    }
    const argumentsWrong = argumentProblem(this.#description, method, args);
    if (argumentsWrong) return refuse(argumentsWrong);
    const scopes: Record<string, string> = this.#oauthScopes
      ? { 'x-oauth-scopes': this.#oauthScopes.join(',') }
      : {};
    const failure = this.#takeFailure(method, args);
    if (failure) return injectedFailure(failure);
    return { ...plain(implementation(this.workspace, args)), headers: scopes };
  }

  // The team (or organization) whose token this is, as calls record it.
  #ownerOf(token: string): string | undefined {
    const installed = this.oauth.ownerOf(token);
    if (installed) return installed;
    return this.workspaces.find((each) => each.botToken === token)?.team.id;
  }

  /** The workspace with this team id. */
  workspaceById(teamId: string): Workspace | undefined {
    return this.workspaces.find((each) => each.team.id === teamId);
  }

  #takeFailure(method: string, args: ApiArgs): PendingFailure | undefined {
    const queue = this.#failures.get(method) ?? [];
    const index = queue.findIndex((failure) => !failure.when || failure.when(args));
    const next = queue[index];
    if (!next) return undefined;
    next.remaining -= 1;
    if (next.remaining <= 0) queue.splice(index, 1);
    return next;
  }

  #handleResponseUrl(res: ServerResponse, url: URL, id: string, raw: string): void {
    const record = this.#responseUrls.get(id);
    if (!record) {
      send(res, 404, { ok: false, error: 'expired_url' });
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      body = raw;
    }
    record.uses += 1;
    const outcome =
      record.uses > this.#maxResponseUrlUses
        ? { status: 404, answer: { ok: false, error: 'used_url' }, effect: 'refused' as const }
        : applyResponseUrlPost(this.workspace, record.context, body);
    const post: ResponseUrlPost = {
      id,
      url: url.href,
      body,
      at: this.workspace.now(),
      status: outcome.status,
      effect: outcome.effect,
      context: { ...record.context },
      ...('ts' in outcome && outcome.ts !== undefined ? { ts: outcome.ts } : {}),
    };
    this.responseUrlPosts.push(post);
    send(res, outcome.status, outcome.answer);
    this.#notify(this.#postWaiters, post);
    this.#activity();
  }
}

/** The body as text, or undefined when it is larger than the limit. */
async function readBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limit) return undefined;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Starts a Slack double on loopback (port 0 unless told) with the default or a seeded workspace. */
export function startSlackDouble(options: SlackDoubleOptions = {}): Promise<SlackDouble> {
  return SlackDouble.start(options);
}
