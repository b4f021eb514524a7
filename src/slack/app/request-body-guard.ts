/**
 * A guard in front of Bolt's HTTP receiver: a body that does not parse to an object (a JSON
 * `null`, or `payload=null`) is answered 400. Bolt reads `body.ssl_check` of whatever the body
 * parses to, so `null` throws inside its request handler and the socket is never answered.
 * It also reports the requests Bolt turns away for their signature, which Bolt only logs at
 * warn, request by request: a wrong SLACK_SIGNING_SECRET fails every one of them.
 */
import type { IncomingHttpHeaders, IncomingMessage, RequestListener } from 'node:http';
import { parse } from 'node:querystring';
import { HTTPModuleFunctions, type HTTPReceiver } from '@slack/bolt';

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

/** Options of `guardRequestBodies`. */
export interface RequestBodyGuardOptions {
  /** Called for each request Bolt answers 401, that is, that failed the signature check. */
  onSignatureFailure?: (reason: SignatureFailureReason) => void;
}

/** Puts the guard in front of the receiver's listener for POSTs to `endpoint`. */
export function guardRequestBodies(
  receiver: HTTPReceiver,
  endpoint: string,
  options: RequestBodyGuardOptions = {},
): void {
  const listener: RequestListener = receiver.requestListener;
  const { onSignatureFailure } = options;
  receiver.requestListener = (req, res) => {
    const path = req.url?.split('?')[0];
    if (req.method !== 'POST' || path !== endpoint) {
      listener(req, res);
      return;
    }
    // Bolt takes an already buffered request as it is (`rawBody`), so the body is read once.
    HTTPModuleFunctions.bufferIncomingMessage(req, HTTPModuleFunctions.defaultBodyLimit).then(
      (buffered: IncomingMessage & { rawBody: Buffer }) => {
        if (!isObjectBody(buffered.rawBody.toString(), req.headers['content-type'])) {
          HTTPModuleFunctions.buildNoBodyResponse(res, 400);
          return;
        }
        // Bolt answers 401 on this endpoint only when the signature check fails.
        if (onSignatureFailure) {
          res.once('finish', () => {
            if (res.statusCode === 401) onSignatureFailure(signatureFailureReason(req.headers));
          });
        }
        listener(buffered, res);
      },
      (error: unknown) => {
        const tooLarge = HTTPModuleFunctions.isRawBodyError(error) && error.statusCode === 413;
        HTTPModuleFunctions.buildNoBodyResponse(res, tooLarge ? 413 : 400);
      },
    );
  };
}
