/**
 * The app's Socket Mode receiver: Bolt's `Receiver` interface around @slack/socket-mode's
 * `SocketModeClient` (the client Bolt's own SocketModeReceiver wraps), with the routes (health,
 * readiness, metrics, the platform's webhook) on the app's HTTP port beside the WebSocket.
 *
 * Envelopes are acked only once the listeners are done, as the HTTP receiver answers: Bolt acks
 * an event before its listeners run, which would tell Slack an intent was taken before it is
 * stored. Held, a failure leaves the envelope unacked and Slack delivers it again. An envelope of
 * a type or shape the app does not route (`request-shapes.ts`) is acked at once, as over HTTP.
 */
import {
  type App,
  type Logger as BoltLogger,
  type CustomRoute,
  defaultProcessEventErrorHandler,
  type ReceiverEvent,
  ReceiverInconsistentStateError,
  ReceiverMultipleAckError,
} from '@slack/bolt';
import { SocketModeClient } from '@slack/socket-mode';
import type { Logger } from 'pino';
import { sortRequest } from './request-shapes.ts';
import { RouteServer, type ServingReceiver } from './route-server.ts';

/** Options of `SlackSocketReceiver`. */
export interface SlackSocketReceiverOptions {
  /** The app-level token (xapp-) that opens the connection. */
  appToken: string;
  /** Another Slack Web API base for apps.connections.open (tests, the sandbox). */
  apiUrl?: string | undefined;
  /** The routes served on `port`. */
  routes: readonly CustomRoute[];
  /** The HTTP port of the routes (0 for any). */
  port: number;
  /** Where envelopes acked at once are noted, at debug. */
  logger: Logger;
  /** The same logger as Bolt's, for the client's and Bolt's own lines. */
  boltLogger: BoltLogger;
}

/** What the client hands its `slack_event` listeners (the part read here). */
interface SlackEnvelope {
  ack: (response?: Record<string, unknown>) => Promise<void>;
  body: ReceiverEvent['body'];
  retry_num?: number;
  retry_reason?: string;
}

/** Takes envelopes from the Socket Mode connection and hands them to the app, acks held. */
export class SlackSocketReceiver implements ServingReceiver {
  readonly #options: SlackSocketReceiverOptions;
  readonly #client: SocketModeClient;
  readonly #server: RouteServer;
  #app: App | undefined;

  constructor(options: SlackSocketReceiverOptions) {
    this.#options = options;
    this.#client = new SocketModeClient({
      appToken: options.appToken,
      logger: options.boltLogger,
      // apps.connections.open goes to the same Web API as every other call.
      ...(options.apiUrl ? { clientOptions: { slackApiUrl: options.apiUrl } } : {}),
    });
    this.#server = new RouteServer({
      routes: options.routes,
      port: options.port,
      onError: (error) => options.logger.error({ err: error }, 'a route failed on a request'),
    });
    this.#client.on('slack_event', (envelope: SlackEnvelope) => {
      // The client does not wait on its listeners: an ack the connection refuses ends here.
      this.#receive(envelope).catch((error: unknown) =>
        options.logger.error({ err: error }, 'a Socket Mode envelope could not be acknowledged'),
      );
    });
  }

  /** Called by Bolt's App with itself, once, as it is built. */
  init(app: App): void {
    this.#app = app;
  }

  get port(): number | undefined {
    return this.#server.port;
  }

  /** Listens for the routes first, so that a port in use stops the start before connecting. */
  async start(): Promise<void> {
    await this.#server.start();
    try {
      await this.#client.start();
    } catch (error) {
      await this.#server.stop();
      throw error;
    }
  }

  async stop(): Promise<void> {
    await Promise.all([this.#server.stop(), this.#client.disconnect()]);
  }

  async #receive(envelope: SlackEnvelope): Promise<void> {
    const verdict = sortRequest(envelope.body);
    if (verdict.kind !== 'route') {
      this.#options.logger.debug(
        verdict.kind === 'unhandled' ? { payload_type: verdict.type, fields: verdict.fields } : {},
        'ignored a Socket Mode envelope of a type or shape the app does not handle',
      );
      await envelope.ack();
      return;
    }
    const app = this.#app;
    if (!app) throw new ReceiverInconsistentStateError('Bolt has not initialised the receiver');
    let held: { body: Record<string, unknown> | undefined } | undefined;
    const event: ReceiverEvent = {
      body: envelope.body,
      ack: async (body?: Record<string, unknown>) => {
        // As Bolt's HTTP ack does: the first answer stands (see answer-unhandled.ts).
        if (held) throw new ReceiverMultipleAckError();
        held = { body };
      },
      ...(envelope.retry_num !== undefined ? { retryNum: envelope.retry_num } : {}),
      ...(envelope.retry_reason !== undefined ? { retryReason: envelope.retry_reason } : {}),
    };
    try {
      await app.processEvent(event);
    } catch (error) {
      // Bolt's own rule: only a failed authorize is acked (Slack would fail it again).
      const ackAnyway = await defaultProcessEventErrorHandler({
        error: error as Error,
        logger: this.#options.boltLogger,
        event,
      });
      if (ackAnyway) await envelope.ack();
      return;
    }
    if (held) await envelope.ack(held.body);
  }
}
