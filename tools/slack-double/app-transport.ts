/**
 * Sending signed requests to the app as Slack does, timing each acknowledgement, and, when
 * asked, retrying an event the way Slack's Events API does: when the app has not answered 2xx
 * within 3 seconds, again at once, after a minute, after five minutes (the delays are options
 * so tests stay fast), with `X-Slack-Retry-Num` and `X-Slack-Retry-Reason` on each retry and
 * no more retries once the app answers an error with `X-Slack-No-Retry: 1`.
 */
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { sleep } from '../../src/clock.ts';
import { AppTimeoutError, AppUnreachableError } from './errors.ts';
import { type SignOptions, signatureHeaders } from './request-signing.ts';

/** The app's answer to one request, and how long it took to come (Slack allows 3 s). */
export interface AppAnswer {
  status: number;
  headers: Record<string, string>;
  /** The body as sent. */
  text: string;
  /** The body parsed as JSON when it is JSON, else the text ('' for an empty ack). */
  body: unknown;
  ackMs: number;
}

/** How Slack retries an event the app did not acknowledge. */
export interface RetrySimulation {
  /** How long Slack waits for a 2xx: 3,000 ms. */
  timeoutMs?: number;
  /** The wait before each retry (at most three): Slack's are 0, 60,000 and 300,000 ms. */
  delaysMs?: readonly number[];
}

/** One delivery of an event in a simulated series. */
export interface DeliveryAttempt {
  retryNum: number;
  retryReason?: string;
  outcome: 'acked' | 'http_error' | 'http_timeout' | 'connection_failed';
  status?: number;
  ackMs: number;
}

/** A request to the app, before signing. */
export interface OutgoingRequest {
  body: string;
  contentType: string;
  headers?: Record<string, string>;
  sign?: SignOptions;
}

/** How to reach and sign for the app. */
export interface AppTransportOptions {
  appUrl: string;
  signingSecret: string;
  /** The clock for signature timestamps; the app checks them against its own, so real by default. */
  now?: () => number;
  /** A bound on any one request that is not simulating Slack's timeout; 10 s by default. */
  requestTimeoutMs?: number;
}

type AttemptResult =
  | { kind: 'answer'; answer: AppAnswer }
  | { kind: 'timeout'; ackMs: number }
  | { kind: 'unreachable'; ackMs: number; error: unknown };

const SLACK_RETRY_DELAYS_MS = [0, 60_000, 300_000];

function flatHeaders(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined)
      flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function parseAnswerBody(contentType: string | undefined, text: string): unknown {
  if (text === '' || !(contentType ?? '').includes('json')) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The driver's HTTP side: one connection pool to the app, closed with `close()`. */
export class AppTransport {
  readonly appUrl: string;
  readonly #signingSecret: string;
  readonly #now: () => number;
  readonly #requestTimeoutMs: number;
  readonly #agent = new Agent({ keepAliveTimeout: 1000 });

  constructor(options: AppTransportOptions) {
    this.appUrl = options.appUrl;
    this.#signingSecret = options.signingSecret;
    this.#now = options.now ?? Date.now;
    this.#requestTimeoutMs = options.requestTimeoutMs ?? 10_000;
  }

  async #attempt(outgoing: OutgoingRequest, timeoutMs: number): Promise<AttemptResult> {
    const headers = {
      'content-type': outgoing.contentType,
      'user-agent': 'Slackbot 1.0 (+https://api.slack.com/robots)',
      ...signatureHeaders(this.#signingSecret, outgoing.body, this.#now(), outgoing.sign),
      ...outgoing.headers,
    };
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    const started = performance.now();
    try {
      const response = await request(this.appUrl, {
        method: 'POST',
        headers,
        body: outgoing.body,
        dispatcher: this.#agent,
        signal: controller.signal,
      });
      const text = await response.body.text();
      const answerHeaders = flatHeaders(response.headers);
      return {
        kind: 'answer',
        answer: {
          status: response.statusCode,
          headers: answerHeaders,
          text,
          body: parseAnswerBody(answerHeaders['content-type'], text),
          ackMs: performance.now() - started,
        },
      };
    } catch (error) {
      const ackMs = performance.now() - started;
      if (controller.signal.aborted) return { kind: 'timeout', ackMs };
      return { kind: 'unreachable', ackMs, error };
    } finally {
      clearTimeout(timer);
    }
  }

  /** Sends one signed request and returns the app's answer. */
  async post(outgoing: OutgoingRequest): Promise<AppAnswer> {
    const result = await this.#attempt(outgoing, this.#requestTimeoutMs);
    if (result.kind === 'timeout') throw new AppTimeoutError(this.appUrl, this.#requestTimeoutMs);
    if (result.kind === 'unreachable') throw new AppUnreachableError(this.appUrl, result.error);
    return result.answer;
  }

  /**
   * Delivers like Slack's Events API: retries while the app does not acknowledge in time.
   * `answer` is the last answer the app gave, undefined when it never answered in time.
   */
  async deliverLikeSlack(
    outgoing: OutgoingRequest,
    simulation: RetrySimulation,
  ): Promise<{ answer: AppAnswer | undefined; attempts: DeliveryAttempt[] }> {
    const timeoutMs = simulation.timeoutMs ?? 3000;
    const delays = (simulation.delaysMs ?? SLACK_RETRY_DELAYS_MS).slice(0, 3);
    const attempts: DeliveryAttempt[] = [];
    let answer: AppAnswer | undefined;
    let reason: string | undefined;
    for (let retryNum = 0; retryNum <= delays.length; retryNum += 1) {
      if (retryNum > 0) await sleep(delays[retryNum - 1] ?? 0);
      const retryHeaders: Record<string, string> =
        retryNum > 0 && reason !== undefined
          ? { 'x-slack-retry-num': String(retryNum), 'x-slack-retry-reason': reason }
          : {};
      const result = await this.#attempt(
        { ...outgoing, headers: { ...outgoing.headers, ...retryHeaders } },
        timeoutMs,
      );
      const ackMs = result.kind === 'answer' ? result.answer.ackMs : result.ackMs;
      const attempt: DeliveryAttempt = { retryNum, outcome: 'acked', ackMs };
      if (reason !== undefined) attempt.retryReason = reason;
      if (result.kind === 'answer') {
        answer = result.answer;
        attempt.status = answer.status;
        const acked = answer.status >= 200 && answer.status < 300;
        attempt.outcome = acked ? 'acked' : 'http_error';
        attempts.push(attempt);
        if (acked || answer.headers['x-slack-no-retry'] === '1') break;
        reason = 'http_error';
      } else {
        attempt.outcome = result.kind === 'timeout' ? 'http_timeout' : 'connection_failed';
        attempts.push(attempt);
        reason = attempt.outcome;
      }
    }
    return { answer, attempts };
  }

  /** Closes the connections to the app. */
  async close(): Promise<void> {
    await this.#agent.close();
  }
}
