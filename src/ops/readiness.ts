/**
 * Readiness: whether this replica should be sent Slack traffic. It is ready when Redis answers
 * (the in-memory store always does), the platform answered within the last minute or answers
 * a cheap read now, Slack accepted the bot token at start, and it is not shutting down.
 * Liveness (/healthz) is separate and only says the process runs: a replica whose platform is
 * away must not be restarted for it.
 */
import { withTimeout } from '../timeout.ts';

/** One check's verdict. */
export interface CheckResult {
  ok: boolean;
  detail: string;
}

/** The verdict of every check, and whether they all passed. */
export interface ReadinessReport {
  ready: boolean;
  checks: {
    shutdown: CheckResult;
    redis: CheckResult;
    platform: CheckResult;
    slack: CheckResult;
  };
}

/** Options of `new Readiness(...)`. */
export interface ReadinessOptions {
  /** Redis, when the app uses it; without it the in-memory store is always ready. */
  redis?: { ping(): Promise<unknown> } | undefined;
  /** A cheap platform read (List desks) that resolves when the platform answers. */
  probePlatform: (signal: AbortSignal) => Promise<unknown>;
  /** Slack's `auth.test` for the bot token; rejects when the token is refused. */
  verifySlack: () => Promise<unknown>;
  /** An answer newer than this needs no probe; 60 s by default. */
  platformFreshMs?: number;
  /** Bound on each check; 2 s by default. */
  checkTimeoutMs?: number;
  /** A failed `auth.test` is tried again at most this often; 30 s by default. */
  slackRetryMs?: number;
  now?: () => number;
}

/** Tracks and checks this replica's readiness. */
export class Readiness {
  readonly #redis: ReadinessOptions['redis'];
  readonly #probePlatform: ReadinessOptions['probePlatform'];
  readonly #verifySlack: ReadinessOptions['verifySlack'];
  readonly #freshMs: number;
  readonly #timeoutMs: number;
  readonly #slackRetryMs: number;
  readonly #now: () => number;
  #shuttingDown = false;
  #platformAnsweredAt: number | undefined;
  #platformProbe: Promise<CheckResult> | undefined;
  #slack: { ok: boolean; detail: string; at: number; answered: boolean } | undefined;
  #slackCheck: Promise<CheckResult> | undefined;

  constructor(options: ReadinessOptions) {
    this.#redis = options.redis;
    this.#probePlatform = options.probePlatform;
    this.#verifySlack = options.verifySlack;
    this.#freshMs = options.platformFreshMs ?? 60_000;
    this.#timeoutMs = options.checkTimeoutMs ?? 2_000;
    this.#slackRetryMs = options.slackRetryMs ?? 30_000;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Records a platform response (wire it to the client's `onResponse` hook). A 5xx, a refused
   * key (401) or no answer at all is not the platform answering.
   */
  platformResponded(status: number | undefined): void {
    if (status !== undefined && status < 500 && status !== 401) {
      this.#platformAnsweredAt = this.#now();
    }
  }

  /**
   * Runs `auth.test` once at start; the app starts either way, but stays unready until it
   * passes (tried again by the checks, at most every `slackRetryMs`). `answered` tells Slack
   * refusing the token from Slack not answering at all.
   */
  async verifySlackAtStart(timeoutMs = 5_000): Promise<CheckResult & { answered: boolean }> {
    const result = await this.#checkSlack(timeoutMs);
    return { ...result, answered: this.#slack?.answered ?? false };
  }

  /** From now on the replica is not ready: it is shutting down. */
  markShuttingDown(): void {
    this.#shuttingDown = true;
  }

  /** Whether a shutdown has begun. */
  get shuttingDown(): boolean {
    return this.#shuttingDown;
  }

  /** Runs every check (each bounded) and reports. */
  async check(): Promise<ReadinessReport> {
    const [redis, platform, slack] = await Promise.all([
      this.#checkRedis(),
      this.#checkPlatform(),
      this.#currentSlack(),
    ]);
    const shutdown: CheckResult = this.#shuttingDown
      ? { ok: false, detail: 'shutting down' }
      : { ok: true, detail: 'running' };
    return {
      ready: shutdown.ok && redis.ok && platform.ok && slack.ok,
      checks: { shutdown, redis, platform, slack },
    };
  }

  async #checkRedis(): Promise<CheckResult> {
    if (!this.#redis) return { ok: true, detail: 'in-memory store' };
    try {
      await withTimeout('Redis PING', this.#timeoutMs, this.#redis.ping());
      return { ok: true, detail: 'PING answered' };
    } catch (error) {
      return { ok: false, detail: `Redis did not answer PING: ${message(error)}` };
    }
  }

  #checkPlatform(): Promise<CheckResult> {
    const answeredAt = this.#platformAnsweredAt;
    if (answeredAt !== undefined && this.#now() - answeredAt < this.#freshMs) {
      const seconds = Math.round((this.#now() - answeredAt) / 1000);
      return Promise.resolve({ ok: true, detail: `answered ${seconds} s ago` });
    }
    // One probe at a time, however many probes the load balancer sends.
    this.#platformProbe ??= this.#probe().finally(() => {
      this.#platformProbe = undefined;
    });
    return this.#platformProbe;
  }

  async #probe(): Promise<CheckResult> {
    const controller = new AbortController();
    try {
      await withTimeout('platform read', this.#timeoutMs, this.#probePlatform(controller.signal));
      this.#platformAnsweredAt = this.#now();
      return { ok: true, detail: 'answered now' };
    } catch (error) {
      return {
        ok: false,
        detail: `no answer in the last ${Math.round(this.#freshMs / 1000)} s and none now: ${message(error)}`,
      };
    } finally {
      controller.abort();
    }
  }

  #currentSlack(): Promise<CheckResult> {
    const last = this.#slack;
    if (last && (last.ok || this.#now() - last.at < this.#slackRetryMs)) {
      return Promise.resolve({ ok: last.ok, detail: last.detail });
    }
    return this.#checkSlack(this.#timeoutMs);
  }

  #checkSlack(timeoutMs: number): Promise<CheckResult> {
    this.#slackCheck ??= (async () => {
      let result: CheckResult;
      let answered = true;
      try {
        await withTimeout('Slack auth.test', timeoutMs, this.#verifySlack());
        result = { ok: true, detail: 'auth.test passed' };
      } catch (error) {
        // Slack's own `ok: false` (a refused token) is an answer; anything else is none.
        answered = (error as { code?: unknown }).code === 'slack_webapi_platform_error';
        result = { ok: false, detail: `auth.test failed: ${message(error)}` };
      }
      this.#slack = { ...result, at: this.#now(), answered };
      return result;
    })().finally(() => {
      this.#slackCheck = undefined;
    });
    return this.#slackCheck;
  }
}

function message(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' && !error.message.includes(code)
      ? `${code}: ${error.message}`
      : error.message;
  }
  return String(error);
}
