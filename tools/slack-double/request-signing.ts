/**
 * Signing requests the way Slack signs what it sends an app: `X-Slack-Signature` is
 * `v0=` + hex HMAC-SHA256 of `v0:<timestamp>:<raw body>` under the signing secret, and
 * `X-Slack-Request-Timestamp` is that timestamp in seconds. Apps refuse anything older than
 * five minutes, which is what the stale option is for.
 */
import { createHmac } from 'node:crypto';

/** Ways to sign wrongly on purpose, for the app's refusal tests. */
export interface SignOptions {
  /** Sign with the wrong secret: a well-formed signature that does not verify. */
  badSignature?: boolean;
  /** Sign correctly but ten minutes in the past, beyond Slack's five-minute window. */
  staleTimestamp?: boolean;
  /** Send no signature headers at all. */
  unsigned?: boolean;
}

const STALE_BY_SECONDS = 10 * 60;

/** Slack's signature of a body: `v0=<hex HMAC-SHA256 of "v0:<ts>:<body>">`. */
export function slackSignature(
  signingSecret: string,
  timestampSec: number,
  rawBody: string,
): string {
  const digest = createHmac('sha256', signingSecret)
    .update(`v0:${timestampSec}:${rawBody}`)
    .digest('hex');
  return `v0=${digest}`;
}

/** The signature headers for a body sent at `nowMs`, signed rightly or, on request, wrongly. */
export function signatureHeaders(
  signingSecret: string,
  rawBody: string,
  nowMs: number,
  options: SignOptions = {},
): Record<string, string> {
  if (options.unsigned) return {};
  const nowSec = Math.floor(nowMs / 1000);
  const timestamp = options.staleTimestamp ? nowSec - STALE_BY_SECONDS : nowSec;
  const secret = options.badSignature ? `${signingSecret}-but-wrong` : signingSecret;
  return {
    'x-slack-request-timestamp': String(timestamp),
    'x-slack-signature': slackSignature(secret, timestamp, rawBody),
  };
}
