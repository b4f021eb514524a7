import { describe, expect, it } from 'vitest';
import { checkWebhook, webhookSignature } from '../../src/contract/webhook.ts';

const SECRET = 'whsec-test-0123456789';
const NOW = 1_790_000_000_000;
const body = JSON.stringify({
  id: 'd-1',
  type: 'ticket.message_added',
  ticket_id: 'IT-12',
  occurred_at: '2026-09-21T10:00:00Z',
});
const signed = (raw: string, atSec = NOW / 1000, secret = SECRET) => ({
  'x-servicedesk-timestamp': String(atSec),
  'x-servicedesk-signature': webhookSignature(secret, atSec, raw),
});

describe('webhook deliveries', () => {
  it('accepts a delivery signed with the secret within five minutes', () => {
    const check = checkWebhook({ secret: SECRET, headers: signed(body), rawBody: body, now: NOW });
    expect(check).toMatchObject({ ok: true, event: { ticket_id: 'IT-12' } });
  });

  it('refuses a signature made with another secret', () => {
    const headers = signed(body, NOW / 1000, 'another-secret');
    expect(checkWebhook({ secret: SECRET, headers, rawBody: body, now: NOW })).toEqual({
      ok: false,
      refusal: 'unauthenticated',
    });
  });

  it('refuses a body changed after signing', () => {
    const headers = signed(body);
    const changed = body.replace('IT-12', 'IT-13');
    expect(checkWebhook({ secret: SECRET, headers, rawBody: changed, now: NOW }).ok).toBe(false);
  });

  it('refuses a correctly signed delivery from more than five minutes ago', () => {
    const headers = signed(body, NOW / 1000 - 301);
    expect(checkWebhook({ secret: SECRET, headers, rawBody: body, now: NOW })).toEqual({
      ok: false,
      refusal: 'stale',
    });
  });

  it('accepts the static bearer token and refuses a wrong one or none', () => {
    const ok = checkWebhook({
      secret: SECRET,
      headers: { authorization: `Bearer ${SECRET}` },
      rawBody: body,
      now: NOW,
    });
    expect(ok.ok).toBe(true);
    for (const headers of [{ authorization: 'Bearer nope' }, {}]) {
      expect(checkWebhook({ secret: SECRET, headers, rawBody: body, now: NOW }).ok).toBe(false);
    }
  });

  it('refuses a signed body that is not a ticket change', () => {
    for (const raw of ['null', '{"id":"x"}', 'not json']) {
      expect(
        checkWebhook({ secret: SECRET, headers: signed(raw), rawBody: raw, now: NOW }),
      ).toEqual({ ok: false, refusal: 'malformed' });
    }
  });
});
