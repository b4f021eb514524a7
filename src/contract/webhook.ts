/**
 * The platform's outgoing webhooks, as the contract describes them: a signed POST per change of
 * a ticket, naming the ticket and nothing of its text. Signing and checking live together so
 * the emulator (which sends them) and the app (which receives them) agree by construction.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/** The header carrying the Unix time the delivery was signed at. */
export const WEBHOOK_TIMESTAMP_HEADER = 'x-servicedesk-timestamp';
/** The header carrying `v1=<hex HMAC-SHA256 of "<timestamp>.<raw body>">`. */
export const WEBHOOK_SIGNATURE_HEADER = 'x-servicedesk-signature';
/** How far a delivery's timestamp may be from now: the contract's 5 minutes. */
export const WEBHOOK_TOLERANCE_MS = 5 * 60_000;

/** One webhook delivery's body. Unknown fields pass. */
export const webhookEventSchema = z.looseObject({
  id: z.string().min(1).max(200),
  type: z.string().min(1).max(100),
  ticket_id: z.string().min(1).max(100),
  occurred_at: z.string().max(100),
});
/** One webhook delivery's body. */
export type WebhookEvent = z.infer<typeof webhookEventSchema>;

/** The signature header's value for a body signed at `timestampSec`. */
export function webhookSignature(secret: string, timestampSec: number, rawBody: string): string {
  const digest = createHmac('sha256', secret).update(`${timestampSec}.${rawBody}`).digest('hex');
  return `v1=${digest}`;
}

/** Why a delivery was refused. */
export type WebhookRefusal = 'unauthenticated' | 'stale' | 'malformed';

/** The outcome of checking one delivery. */
export type WebhookCheck =
  | { ok: true; event: WebhookEvent }
  | { ok: false; refusal: WebhookRefusal };

// Digests first: equal lengths for timingSafeEqual, and no length told by the time taken.
function sameText(a: string, b: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/**
 * Checks a delivery: a valid signature with a timestamp inside the tolerance, or (for tools
 * that can only send a fixed header) `Authorization: Bearer <secret>`; then the body's shape.
 * Compared in constant time; nothing about the secret leaks through the refusal.
 */
export function checkWebhook(input: {
  secret: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  rawBody: string;
  now: number;
}): WebhookCheck {
  const header = (name: string) => {
    const value = input.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const signature = header(WEBHOOK_SIGNATURE_HEADER);
  const authorization = header('authorization');
  if (signature !== undefined) {
    const timestamp = Number(header(WEBHOOK_TIMESTAMP_HEADER));
    if (!Number.isInteger(timestamp)) return { ok: false, refusal: 'unauthenticated' };
    const expected = webhookSignature(input.secret, timestamp, input.rawBody);
    if (!sameText(signature, expected)) return { ok: false, refusal: 'unauthenticated' };
    if (Math.abs(input.now - timestamp * 1_000) > WEBHOOK_TOLERANCE_MS)
      return { ok: false, refusal: 'stale' };
  } else if (authorization === undefined || !sameText(authorization, `Bearer ${input.secret}`)) {
    return { ok: false, refusal: 'unauthenticated' };
  }
  let body: unknown;
  try {
    body = JSON.parse(input.rawBody);
  } catch {
    return { ok: false, refusal: 'malformed' };
  }
  const parsed = webhookEventSchema.safeParse(body);
  return parsed.success ? { ok: true, event: parsed.data } : { ok: false, refusal: 'malformed' };
}
