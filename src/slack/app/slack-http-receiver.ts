/**
 * The app's HTTP receiver: Bolt's `Receiver` interface, implemented with what Bolt exports for
 * it (`HTTPModuleFunctions`, `verifySlackRequest`, `HTTPResponseAck`), so that a Bolt release
 * cannot change it from under the app. One server takes Slack's requests on the events path and
 * serves the routes (health, readiness, metrics, the platform's webhook) beside it.
 *
 * A request to the events path is, in order: refused 401 when signed more than five minutes
 * ahead (Bolt only refuses the past); read up to Bolt's body limit (413 past it); refused 401
 * when its signature fails, and the reason reported (a wrong SLACK_SIGNING_SECRET fails them
 * all); 400 when it does not parse, or parses to no object; answered at once when of a type or
 * shape the app does not route (`request-shapes.ts`), 200, or 400 when it is no Slack payload:
 * Bolt would throw on it (500, which Slack delivers again) or wait 3 s for an ack no listener
 * gives. Anything else goes to the app, and Slack is answered only once the listeners are done
 * (Bolt's `processBeforeResponse`): an ack means the intent is stored, and a listener's error
 * (rethrown by app.error) answers 500, so that Slack delivers again.
 *
 * Installing by OAuth, the receiver does what Bolt's own HTTPReceiver does with the same options
 * (`clientId`, `clientSecret`, `stateSecret`, `installationStore`, `scopes`, `installerOptions`):
 * it builds the `installer` (@slack/oauth's InstallProvider), whose `authorize` Bolt's App then
 * uses, and serves GET `/slack/install` and `/slack/oauth_redirect` through it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse } from 'node:querystring';
import {
  type App,
  type Logger as BoltLogger,
  type BufferedIncomingMessage,
  type CustomRoute,
  HTTPModuleFunctions,
  HTTPResponseAck,
  type ReceiverEvent,
  ReceiverInconsistentStateError,
} from '@slack/bolt';
import {
  type CallbackOptions,
  type InstallationStore,
  InstallProvider,
  type InstallProviderOptions,
  type StateStore,
} from '@slack/oauth';
import type { Logger } from 'pino';
import { sortRequest } from './request-shapes.ts';
import { checkSignature, isSignedAhead, type SignatureFailureReason } from './request-signature.ts';
import { RouteServer, requestPath, type ServingReceiver } from './route-server.ts';

/** Options of `SlackHttpReceiver`. */
export interface SlackHttpReceiverOptions {
  signingSecret: string;
  /** The path Slack posts to. */
  endpoint: string;
  /** The other routes served on the same port. */
  routes: readonly CustomRoute[];
  /** The port to listen on (0 for any). */
  port: number;
  /** Where the receiver notes what it answered at once, at debug. */
  logger: Logger;
  /** The same logger as Bolt's, for the lines Bolt's own functions write. */
  boltLogger: BoltLogger;
  /** Told of each request refused for its signature, and why. */
  onSignatureFailure?: (reason: SignatureFailureReason) => void;
  /** The most a body may weigh (Bolt's 4 MB by default). */
  bodyLimit?: number;
  /** Installing by OAuth: Bolt's receiver options of the same names (all five, or none). */
  clientId?: string;
  clientSecret?: string;
  stateSecret?: string;
  installationStore?: InstallationStore;
  /** The bot scopes an install asks for. */
  scopes?: string[];
  installerOptions?: ReceiverInstallerOptions;
}

/** The part of Bolt's `installerOptions` this receiver takes. */
export interface ReceiverInstallerOptions
  extends Pick<InstallProviderOptions, 'directInstall' | 'clientOptions' | 'authorizationUrl'> {
  /** Where install states are kept (Bolt's own, signed with `stateSecret`, when unset). */
  stateStore?: StateStore;
  /** GET path that starts an install; `/slack/install` by default. */
  installPath?: string;
  /** GET path Slack sends the installer back to; `/slack/oauth_redirect` by default. */
  redirectUriPath?: string;
  callbackOptions?: CallbackOptions;
  /** Bolt's logger for the installer's own lines. */
  logger?: InstallProviderOptions['logger'];
}

/** Takes Slack's HTTP requests and hands them to the app, holding the answer until it is done. */
export class SlackHttpReceiver implements ServingReceiver {
  readonly #options: SlackHttpReceiverOptions;
  readonly #server: RouteServer;
  #app: App | undefined;
  /** Installing by OAuth: Bolt's App takes its `authorize` (see `initAuthorizeIfNoTokenIsGiven`). */
  readonly installer: InstallProvider | undefined;

  constructor(options: SlackHttpReceiverOptions) {
    this.#options = options;
    this.installer = buildInstaller(options);
    const installer = this.installer;
    const installPath = options.installerOptions?.installPath ?? '/slack/install';
    const redirectPath = options.installerOptions?.redirectUriPath ?? '/slack/oauth_redirect';
    this.#server = new RouteServer({
      routes: options.routes,
      port: options.port,
      take: (req, res) => {
        if (installer && req.method === 'GET') {
          const path = requestPath(req);
          if (path === installPath) {
            installer
              .handleInstallPath(req, res)
              .catch((error: unknown) => this.#failed(error, res));
            return true;
          }
          if (path === redirectPath) {
            installer
              .handleCallback(req, res, options.installerOptions?.callbackOptions)
              .catch((error: unknown) => this.#failed(error, res));
            return true;
          }
        }
        if (req.method !== 'POST' || requestPath(req) !== options.endpoint) return false;
        this.#receive(req, res).catch((error: unknown) => this.#failed(error, res));
        return true;
      },
      onError: (error) => options.logger.error({ err: error }, 'a route failed on a request'),
    });
  }

  /** Called by Bolt's App with itself, once, as it is built. */
  init(app: App): void {
    this.#app = app;
  }

  get port(): number | undefined {
    return this.#server.port;
  }

  async start(): Promise<void> {
    await this.#server.start();
  }

  async stop(): Promise<void> {
    await this.#server.stop();
  }

  async #receive(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { logger, signingSecret } = this.#options;
    // Refused before the body is read: nothing signed for later is worth reading.
    if (isSignedAhead(req.headers)) {
      this.#refuse(res, 'stale');
      return;
    }
    let buffered: BufferedIncomingMessage;
    try {
      buffered = await HTTPModuleFunctions.bufferIncomingMessage(
        req,
        this.#options.bodyLimit ?? HTTPModuleFunctions.defaultBodyLimit,
      );
    } catch (error) {
      const tooLarge = HTTPModuleFunctions.isRawBodyError(error) && error.statusCode === 413;
      HTTPModuleFunctions.buildNoBodyResponse(res, tooLarge ? 413 : 400);
      return;
    }
    const raw = buffered.rawBody.toString();
    // Slack's `ssl_check` is unsigned; Bolt answers it unverified, and so does this.
    if (isSslCheck(req, raw)) {
      HTTPModuleFunctions.buildSSLCheckResponse(res);
      return;
    }
    const signature = checkSignature(req.headers, raw, signingSecret);
    if (!signature.ok) {
      this.#refuse(res, signature.reason);
      return;
    }
    const body = parseBody(buffered);
    // Bolt reads fields of whatever the body parses to: `null` or a number would throw in it.
    if (!body.ok || !isObject(body.value)) {
      HTTPModuleFunctions.buildNoBodyResponse(res, 400);
      return;
    }
    const fields = body.value;
    if (fields.ssl_check === '1') {
      HTTPModuleFunctions.buildSSLCheckResponse(res);
      return;
    }
    if (fields.type === 'url_verification') {
      HTTPModuleFunctions.buildUrlVerificationResponse(res, fields);
      return;
    }
    const verdict = sortRequest(fields);
    if (verdict.kind === 'not_slack') {
      logger.debug('answered 400 to a signed request that is not a Slack payload');
      HTTPModuleFunctions.buildNoBodyResponse(res, 400);
      return;
    }
    if (verdict.kind === 'unhandled') {
      // Answered 200 so that Slack does not deliver it again: the app has nothing to do with it.
      logger.debug(
        { payload_type: verdict.type, fields: verdict.fields },
        'ignored a signed request of a type or shape the app does not handle',
      );
      HTTPModuleFunctions.buildNoBodyResponse(res, 200);
      return;
    }
    await this.#dispatch(buffered, fields, res);
  }

  async #dispatch(
    req: BufferedIncomingMessage,
    body: Record<string, unknown>,
    res: ServerResponse,
  ): Promise<void> {
    const app = this.#app;
    if (!app) throw new ReceiverInconsistentStateError('Bolt has not initialised the receiver');
    const { boltLogger } = this.#options;
    // Held: the answer Slack gets is stored by the first ack and sent once the listeners finish.
    const ack = new HTTPResponseAck({
      logger: boltLogger,
      processBeforeResponse: true,
      httpRequest: req,
      httpRequestBody: body,
      httpResponse: res,
    });
    const event: ReceiverEvent = {
      body,
      ack: ack.bind(),
      retryNum: HTTPModuleFunctions.extractRetryNumFromHTTPRequest(req),
      retryReason: HTTPModuleFunctions.extractRetryReasonFromHTTPRequest(req),
    };
    try {
      await app.processEvent(event);
    } catch (error) {
      // Bolt's own answer to a failed listener: 500 (401 for a failed authorize), unless sent.
      const acknowledged = await HTTPModuleFunctions.defaultProcessEventErrorHandler({
        error: error as Error,
        logger: boltLogger,
        request: req,
        response: res,
        storedResponse: ack.storedResponse,
      });
      if (acknowledged) ack.ack();
      return;
    }
    if (ack.storedResponse !== undefined) {
      HTTPModuleFunctions.buildContentResponse(res, ack.storedResponse);
    }
  }

  #refuse(res: ServerResponse, reason: SignatureFailureReason): void {
    HTTPModuleFunctions.buildNoBodyResponse(res, 401);
    this.#options.onSignatureFailure?.(reason);
  }

  // What reaches here is a fault of the receiver itself, not of a listener (those are answered
  // in #dispatch): answered 500 so that Slack tries again, and logged for whoever fixes it.
  #failed(error: unknown, res: ServerResponse): void {
    this.#options.logger.error({ err: error }, 'the Slack receiver failed on a request');
    if (!res.headersSent) HTTPModuleFunctions.buildNoBodyResponse(res, 500);
  }
}

// Built as Bolt's HTTPReceiver builds it, from the same options; none without all of them.
function buildInstaller(options: SlackHttpReceiverOptions): InstallProvider | undefined {
  const { clientId, clientSecret, stateSecret, installationStore } = options;
  if (!clientId || !clientSecret || !installationStore) return undefined;
  const extra = options.installerOptions ?? {};
  return new InstallProvider({
    clientId,
    clientSecret,
    stateSecret,
    installationStore,
    installUrlOptions: { scopes: options.scopes ?? [] },
    ...(extra.stateStore ? { stateStore: extra.stateStore } : {}),
    ...(extra.directInstall !== undefined ? { directInstall: extra.directInstall } : {}),
    ...(extra.clientOptions ? { clientOptions: extra.clientOptions } : {}),
    ...(extra.authorizationUrl ? { authorizationUrl: extra.authorizationUrl } : {}),
    ...(extra.logger ? { logger: extra.logger } : {}),
  });
}

function isSslCheck(req: IncomingMessage, raw: string): boolean {
  return (
    req.headers['content-type'] === 'application/x-www-form-urlencoded' &&
    parse(raw).ssl_check === '1'
  );
}

// Parsed as Bolt parses it (JSON, a form, or a form's JSON `payload`).
function parseBody(req: BufferedIncomingMessage): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: HTTPModuleFunctions.parseHTTPRequestBody(req) };
  } catch {
    return { ok: false };
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
