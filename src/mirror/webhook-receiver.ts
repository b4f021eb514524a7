/**
 * `POST /servicedesk/webhook`: the platform's push hints. A delivery is checked (signature and
 * its five-minute window, or the static bearer token) before anything else is read or spent;
 * anything else is 401 and costs nothing. A checked hint is only a hint: its ticket is looked
 * at through the API soon (`TicketHints`), its payload is never posted, a delivery id seen
 * before (a replay, or the platform's own duplicate) does nothing more, and a ticket no Slack
 * thread follows costs one Redis read.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkWebhook, type WebhookRefusal } from '../contract/webhook.ts';
import type { ClaimStore, Now } from '../store/types.ts';
import { MIRROR_TUNING } from './mirror-tuning.ts';
import type { HintOutcome, TicketHints } from './ticket-hints.ts';
import type { TriageFeed } from './triage-feed.ts';

/** The path the platform's automation rule calls. */
export const WEBHOOK_PATH = '/servicedesk/webhook';

/** How one delivery ended, as the metrics count it. */
export type WebhookOutcome = HintOutcome | WebhookRefusal | 'duplicate' | 'too_large' | 'error';

/** What the receiver needs. */
export interface WebhookReceiverOptions {
  secret: string;
  hints: Pick<TicketHints, 'hint'>;
  /** Told of each new ticket (`ticket.created`) and each change (`ticket.updated`), for triage cards. */
  triage?: Pick<TriageFeed, 'created' | 'updated'> | undefined;
  /** Remembers delivery ids, so a replayed delivery does nothing. */
  claims: ClaimStore;
  now?: Now;
  /** Told how each delivery ended (metrics, the doctor's "hints received lately"). */
  onOutcome?: (outcome: WebhookOutcome) => void;
  logger: { warn(obj: object, msg: string): void; debug(obj: object, msg: string): void };
}

// A delivery is a few hundred bytes; anything much larger is not one.
const BODY_LIMIT = 16 * 1024;
// Longer than the five minutes a signed delivery stays valid, so a replay is always caught.
const SEEN_MS = MIRROR_TUNING.budget.webhookSeenMs.value;

const STATUS: Readonly<Record<WebhookOutcome, number>> = {
  scheduled: 200,
  unlinked: 200,
  duplicate: 200,
  unauthenticated: 401,
  stale: 401,
  malformed: 400,
  too_large: 413,
  // Redis is away: the platform retries the delivery later.
  error: 503,
};

/** The route's handler, for the app's HTTP server (both modes and every role). */
export function webhookHandler(
  options: WebhookReceiverOptions,
): (req: IncomingMessage, res: ServerResponse) => void {
  const now = options.now ?? Date.now;
  const answer = (res: ServerResponse, outcome: WebhookOutcome) => {
    options.onOutcome?.(outcome);
    res.writeHead(STATUS[outcome], { 'content-type': 'application/json' });
    res.end(JSON.stringify({ outcome }));
  };
  return (req, res) => {
    readBody(req).then(
      async (rawBody) => {
        if (rawBody === undefined) return answer(res, 'too_large');
        const check = checkWebhook({
          secret: options.secret,
          headers: req.headers,
          rawBody,
          now: now(),
        });
        if (!check.ok) return answer(res, check.refusal);
        const { id, ticket_id: ticketId, type } = check.event;
        try {
          const seen = await options.claims.claim(`webhook:${id}`, SEEN_MS);
          if (seen.state !== 'claimed') return answer(res, 'duplicate');
          if (type === 'ticket.created') options.triage?.created(ticketId);
          if (type === 'ticket.updated') options.triage?.updated(ticketId);
          // A change other than a message is announced news, looked at as a message is.
          const messageOnly = type === 'ticket.message_added';
          const outcome = await options.hints.hint(ticketId, {
            messageOnly,
            announced: !messageOnly,
          });
          options.logger.debug({ ticket_id: ticketId, type, outcome }, 'platform webhook');
          return answer(res, outcome);
        } catch (error) {
          options.logger.warn({ err: error, ticket_id: ticketId }, 'webhook hint not recorded');
          return answer(res, 'error');
        }
      },
      () => answer(res, 'malformed'),
    );
  };
}

// The raw body as text, or undefined past the limit (then the rest is not read).
function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_LIMIT) {
        req.removeAllListeners('data');
        req.resume();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
