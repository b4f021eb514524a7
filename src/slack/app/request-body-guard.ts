/**
 * A guard in front of Bolt's HTTP receiver: a body that does not parse to an object (a JSON
 * `null`, or `payload=null`) is answered 400. Bolt reads `body.ssl_check` of whatever the body
 * parses to, so `null` throws inside its request handler and the socket is never answered.
 */
import type { IncomingMessage, RequestListener } from 'node:http';
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

/** Puts the guard in front of the receiver's listener for POSTs to `endpoint`. */
export function guardRequestBodies(receiver: HTTPReceiver, endpoint: string): void {
  const listener: RequestListener = receiver.requestListener;
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
        listener(buffered, res);
      },
      (error: unknown) => {
        const tooLarge = HTTPModuleFunctions.isRawBodyError(error) && error.statusCode === 413;
        HTTPModuleFunctions.buildNoBodyResponse(res, tooLarge ? 413 : 400);
      },
    );
  };
}
