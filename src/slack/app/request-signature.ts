/**
 * Slack's request signature, checked by the HTTP receiver with Bolt's public `verifySlackRequest`,
 * and the reason a request fails it, which Bolt does not give: a wrong SLACK_SIGNING_SECRET fails
 * every request, and the operator is told so (`ops/signature-failures.ts`). A timestamp more than
 * five minutes ahead is refused as a stale one is (Bolt only refuses the past), so a request
 * signed ahead cannot be replayed for longer.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { verifySlackRequest } from '@slack/bolt';

/**
 * Why a request failed the signature check: signed for the current time with another secret
 * (`mismatch`, the wrong-secret case), signed more than five minutes away from this server's
 * clock (`stale`: a replay, or a clock that is off), or not signed at all (`unsigned`: not Slack).
 */
export type SignatureFailureReason = 'mismatch' | 'stale' | 'unsigned';

/** The outcome of the check: signed, or refused and why. */
export type SignatureCheck = { ok: true } | { ok: false; reason: SignatureFailureReason };

/** Slack's (and Bolt's) limit on a request's age. */
const SIGNATURE_MAX_AGE_S = 5 * 60;

/**
 * Why a request failed the signature check, from its headers alone (no secret needed): a
 * signature and timestamp present make it `stale` when the timestamp is over five minutes away,
 * else `mismatch`.
 */
export function signatureFailureReason(
  headers: IncomingHttpHeaders,
  nowMs: number = Date.now(),
): SignatureFailureReason {
  const signed = signedHeaders(headers);
  if (!signed) return 'unsigned';
  return Math.abs(nowMs / 1000 - signed.timestamp) > SIGNATURE_MAX_AGE_S ? 'stale' : 'mismatch';
}

/** Whether a request is signed for a time more than five minutes ahead of this server's clock. */
export function isSignedAhead(headers: IncomingHttpHeaders, nowMs: number = Date.now()): boolean {
  const timestamp = Number(headers['x-slack-request-timestamp']);
  return Number.isFinite(timestamp) && timestamp - nowMs / 1000 > SIGNATURE_MAX_AGE_S;
}

/** Checks a raw body against its signature headers and the signing secret. */
export function checkSignature(
  headers: IncomingHttpHeaders,
  rawBody: string,
  signingSecret: string,
  nowMs: number = Date.now(),
): SignatureCheck {
  const signed = signedHeaders(headers);
  if (!signed) return { ok: false, reason: 'unsigned' };
  if (isSignedAhead(headers, nowMs)) return { ok: false, reason: 'stale' };
  try {
    verifySlackRequest({
      signingSecret,
      body: rawBody,
      headers: {
        'x-slack-signature': signed.signature,
        'x-slack-request-timestamp': signed.timestamp,
      },
      nowMilliseconds: nowMs,
    });
    return { ok: true };
  } catch {
    return { ok: false, reason: signatureFailureReason(headers, nowMs) };
  }
}

function signedHeaders(
  headers: IncomingHttpHeaders,
): { signature: string; timestamp: number } | undefined {
  const signature = headers['x-slack-signature'];
  const timestamp = Number(headers['x-slack-request-timestamp']);
  if (typeof signature !== 'string' || !signature || !Number.isFinite(timestamp)) return undefined;
  return { signature, timestamp };
}
