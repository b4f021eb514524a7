/**
 * Slack's Retry-After, kept. Slack limits each Web API method per workspace, and a 429 says how
 * long that method must rest: until then no call of it leaves the app, from any replica (the
 * hold is in the claim store, so Redis shares it), and the caller gets the same rate-limit error
 * Slack would have answered, with the seconds left. Other methods go on (chat.postEphemeral or
 * chat.update are not held by a limited chat.postMessage).
 */
import { createHash } from 'node:crypto';
import { type WebAPICallResult, WebClient, type WebClientOptions } from '@slack/web-api';
import type { ClaimStore, Now } from '../../store/types.ts';
import { SlackMethodHeldError } from '../errors.ts';

/** Options of the holds. */
export interface SlackMethodHoldsOptions {
  claims: Pick<ClaimStore, 'claim' | 'complete' | 'get'>;
  /** The workspace the token is installed in; holds of one workspace never stop another's. */
  workspace: string;
  now?: Now;
}

// Kept a little past Retry-After, so a replica reading it at the last moment still sees it.
const KEEP_EXTRA_MS = 1_000;
// After the store failed to answer, how long Slack calls skip it rather than each wait on it.
const STORE_AWAY_MS = 5_000;

/** The Retry-After of each Slack Web API method in one workspace, shared by every replica. */
export class SlackMethodHolds {
  readonly #claims: SlackMethodHoldsOptions['claims'];
  readonly #workspace: string;
  readonly #now: Now;
  // What this process knows without asking the store: its own 429s and holds it read.
  readonly #known = new Map<string, number>();
  #storeAwayUntil = 0;

  constructor(options: SlackMethodHoldsOptions) {
    this.#claims = options.claims;
    this.#workspace = options.workspace;
    this.#now = options.now ?? Date.now;
  }

  /** How long `method` must still rest (ms), or undefined when it may be called now. */
  async heldFor(method: string): Promise<number | undefined> {
    const now = this.#now();
    const local = this.#known.get(method);
    if (local !== undefined && local > now) return local - now;
    if (local !== undefined) this.#known.delete(method);
    // A store that cannot answer (Redis away) must not stop Slack calls: this process's own
    // holds still apply, and Slack answers 429 again should another replica's hold be missed.
    if (now < this.#storeAwayUntil) return undefined;
    const record = await this.#claims.get(this.#key(method)).catch(() => {
      this.#storeAwayUntil = this.#now() + STORE_AWAY_MS;
      return undefined;
    });
    const until = record?.state === 'done' ? untilOf(record.result) : undefined;
    if (until === undefined || until <= now) return undefined;
    this.#known.set(method, until);
    return until - now;
  }

  /** Holds `method` for `retryAfterSec`, as Slack's 429 asked. */
  async hold(method: string, retryAfterSec: number): Promise<void> {
    const now = this.#now();
    const until = now + Math.max(0, retryAfterSec) * 1_000;
    if ((this.#known.get(method) ?? 0) < until) this.#known.set(method, until);
    const key = this.#key(method);
    const ttlMs = until - now + KEEP_EXTRA_MS;
    try {
      const taken = await this.#claims.claim(key, ttlMs);
      // Held already (another replica's 429 a moment ago): that hold stands.
      if (taken.state === 'claimed')
        await this.#claims.complete(key, taken.token, { until }, ttlMs);
    } catch {
      // Redis away: this process keeps the hold; the others learn it from Slack's own 429.
    }
  }

  #key(method: string): string {
    return `slack-hold:${this.#workspace}:${method}`;
  }
}

function untilOf(result: unknown): number | undefined {
  const until = (result as { until?: unknown } | null | undefined)?.until;
  return typeof until === 'number' ? until : undefined;
}

/**
 * Names the workspace of a bot token without a call to Slack (one bot token is one workspace's
 * install) and without putting the token anywhere: a hash of it.
 */
export function workspaceOfToken(botToken: string): string {
  return createHash('sha256').update(botToken).digest('hex').slice(0, 16);
}

/** The seconds a Slack rate-limit error asks to wait, or undefined. */
function retryAfterOf(error: unknown): number | undefined {
  const limited = error as { code?: unknown; retryAfter?: unknown } | null;
  if (limited?.code !== 'slack_webapi_rate_limited_error') return undefined;
  return typeof limited.retryAfter === 'number' ? limited.retryAfter : undefined;
}

/**
 * A Web API client that keeps Slack's Retry-After per method: a call of a held method fails at
 * once with Slack's own rate-limit error (nothing is sent), and a 429 holds its method.
 */
export class HeldWebClient extends WebClient {
  readonly #holds: SlackMethodHolds;

  constructor(token: string, options: WebClientOptions, holds: SlackMethodHolds) {
    super(token, options);
    this.#holds = holds;
  }

  override async apiCall(
    method: string,
    options?: Record<string, unknown>,
  ): Promise<WebAPICallResult> {
    const leftMs = await this.#holds.heldFor(method);
    if (leftMs !== undefined) throw new SlackMethodHeldError(method, Math.ceil(leftMs / 1_000));
    try {
      return await super.apiCall(method, options);
    } catch (error) {
      const retryAfter = retryAfterOf(error);
      if (retryAfter !== undefined) await this.#holds.hold(method, retryAfter);
      throw error;
    }
  }
}
