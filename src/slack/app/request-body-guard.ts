/**
 * A guard in front of Bolt's HTTP receiver: a body that does not parse to an object (a JSON
 * `null`, or `payload=null`) is answered 400. Bolt reads `body.ssl_check` of whatever the body
 * parses to, so `null` throws inside its request handler and the socket is never answered.
 * A signed request of a type or shape the app does not route (`request-shapes.ts`) is answered
 * at once, 200, or 400 when it is no Slack payload at all: Bolt would throw on it (500, which
 * Slack delivers again) or wait 3 s for an ack no listener gives. A timestamp more than five
 * minutes ahead is refused as a stale one is (Bolt only refuses the past), so a request signed
 * ahead cannot be replayed for longer.
 * It also reports the requests Bolt turns away for their signature, which Bolt only logs at
 * warn, request by request: a wrong SLACK_SIGNING_SECRET fails every one of them.
 */
import type { IncomingHttpHeaders, IncomingMessage, RequestListener } from 'node:http';
import { parse } from 'node:querystring';
import { HTTPModuleFunctions, type HTTPReceiver, isValidSlackRequest } from '@slack/bolt';
import type { Logger } from 'pino';
import { sortRequest } from './request-shapes.ts';

/** Whether a raw request body parses to a JSON object, as Bolt's listeners need. */
export function isObjectBody(raw: string, contentType: string | undefined): boolean {
  let text = raw;
  if (contentType?.startsWith('application/x-www-form-urlencoded')) {
    const { payload } = parse(raw);
    // A form without `payload` is a slash command: its fields are the object.
    if (payload === undefined) return true;
    if (typeof payload !== 'string') return false;
    text = payload;
  }
  return text.trimStart().startsWith('{');
}

/**
 * Why a request failed the signature check: signed for the current time with another secret
 * (`mismatch`, the wrong-secret case), signed more than five minutes away from this server's
 * clock (`stale`: a replay, or a clock that is off), or not signed at all (`unsigned`: not Slack).
 */
export type SignatureFailureReason = 'mismatch' | 'stale' | 'unsigned';

/** Slack's (and Bolt's) limit on a request's age. */
const SIGNATURE_MAX_AGE_S = 5 * 60;

/**
 * Why a request answered 401 by Bolt's signature check failed it, from its headers alone (no
 * secret needed), so a receiver that checks signatures itself can report the same reasons.
 */
export function signatureFailureReason(
  headers: IncomingHttpHeaders,
  nowMs: number = Date.now(),
): SignatureFailureReason {
  const signature = headers['x-slack-signature'];
  const timestamp = Number(headers['x-slack-request-timestamp']);
  if (typeof signature !== 'string' || !signature || !Number.isFinite(timestamp)) return 'unsigned';
  return Math.abs(nowMs / 1000 - timestamp) > SIGNATURE_MAX_AGE_S ? 'stale' : 'mismatch';
}

/** Whether a request is signed for a time more than five minutes ahead of this server's clock. */
export function isSignedAhead(headers: IncomingHttpHeaders, nowMs: number = Date.now()): boolean {
  const timestamp = Number(headers['x-slack-request-timestamp']);
  return Number.isFinite(timestamp) && timestamp - nowMs / 1000 > SIGNATURE_MAX_AGE_S;
}

/** Options of `guardRequestBodies`. */
export interface RequestBodyGuardOptions {
  /** Called for each request answered 401, that is, that failed the signature check. */
  onSignatureFailure?: (reason: SignatureFailureReason) => void;
  /** The secret requests are signed with, to answer a signed request Bolt would not route. */
  signingSecret: string;
  /** Where an unrouted request is noted, at debug. */
  logger: Logger;
}

/** Puts the guard in front of the receiver's listener for POSTs to `endpoint`. */
export function guardRequestBodies(
  receiver: HTTPReceiver,
  endpoint: string,
  options: RequestBodyGuardOptions,
): void {
  const listener: RequestListener = receiver.requestListener;
  const { onSignatureFailure, signingSecret, logger } = options;
  receiver.requestListener = (req, res) => {
    const path = req.url?.split('?')[0];
    if (req.method !== 'POST' || path !== endpoint) {
      listener(req, res);
      return;
    }
    // Bolt answers 401 on this endpoint only when the signature check fails, as the guard does.
    if (onSignatureFailure) {
      res.once('finish', () => {
        if (res.statusCode === 401) onSignatureFailure(signatureFailureReason(req.headers));
      });
    }
    if (isSignedAhead(req.headers)) {
      HTTPModuleFunctions.buildNoBodyResponse(res, 401);
      return;
    }
    // Bolt takes an already buffered request as it is (`rawBody`), so the body is read once.
    HTTPModuleFunctions.bufferIncomingMessage(req, HTTPModuleFunctions.defaultBodyLimit).then(
      (buffered: IncomingMessage & { rawBody: Buffer }) => {
        const raw = buffered.rawBody.toString();
        if (!isObjectBody(raw, req.headers['content-type'])) {
          HTTPModuleFunctions.buildNoBodyResponse(res, 400);
          return;
        }
        const parsed = parseBody(buffered);
        const verdict = parsed.ok ? sortRequest(parsed.body) : ({ kind: 'route' } as const);
        // Bolt answers what it routes, a body it cannot parse (400) and a bad signature (401).
        if (verdict.kind === 'route' || !isSigned(req.headers, raw, signingSecret)) {
          listener(buffered, res);
          return;
        }
        if (verdict.kind === 'not_slack') {
          logger.debug('answered 400 to a signed request that is not a Slack payload');
          HTTPModuleFunctions.buildNoBodyResponse(res, 400);
          return;
        }
        // Answered 200 so that Slack does not deliver it again: the app has nothing to do with it.
        logger.debug(
          { payload_type: verdict.type, fields: verdict.fields },
          'ignored a signed request of a type or shape the app does not handle',
        );
        HTTPModuleFunctions.buildNoBodyResponse(res, 200);
      },
      (error: unknown) => {
        const tooLarge = HTTPModuleFunctions.isRawBodyError(error) && error.statusCode === 413;
        HTTPModuleFunctions.buildNoBodyResponse(res, tooLarge ? 413 : 400);
      },
    );
  };
}

// Parsed as Bolt parses it; a body that does not parse is Bolt's to answer (400).
function parseBody(
  buffered: IncomingMessage & { rawBody: Buffer },
): { ok: true; body: unknown } | { ok: false } {
  try {
    return { ok: true, body: HTTPModuleFunctions.parseHTTPRequestBody(buffered) };
  } catch {
    return { ok: false };
  }
}

function isSigned(headers: IncomingHttpHeaders, body: string, signingSecret: string): boolean {
  const signature = headers['x-slack-signature'];
  const timestamp = Number(headers['x-slack-request-timestamp']);
  if (typeof signature !== 'string' || !Number.isFinite(timestamp)) return false;
  return isValidSlackRequest({
    signingSecret,
    body,
    headers: { 'x-slack-signature': signature, 'x-slack-request-timestamp': timestamp },
  });
}
