/** Slack's request signature as the HTTP receiver checks it, and the reason a request fails it. */
import { describe, expect, it } from 'vitest';
import { checkSignature } from '../../../src/slack/app/request-signature.ts';
import { slackSignature } from '../../../tools/slack-double/index.ts';

const SECRET = 'signature-test-secret';
const NOW_MS = 1_800_000_000_000;
const NOW_S = NOW_MS / 1000;
const BODY = 'command=%2Fticket&text=help';

function signed(timestamp: number, secret = SECRET) {
  return {
    'x-slack-request-timestamp': String(timestamp),
    'x-slack-signature': slackSignature(secret, timestamp, BODY),
  };
}

describe('checking a request signature', () => {
  it('accepts a body signed now with the secret', () => {
    expect(checkSignature(signed(NOW_S), BODY, SECRET, NOW_MS)).toEqual({ ok: true });
  });

  it('accepts a body signed a minute ahead, a clock a little off', () => {
    expect(checkSignature(signed(NOW_S + 60), BODY, SECRET, NOW_MS)).toEqual({ ok: true });
  });

  it('refuses a body signed with another secret as a mismatch', () => {
    expect(checkSignature(signed(NOW_S, 'other'), BODY, SECRET, NOW_MS)).toEqual({
      ok: false,
      reason: 'mismatch',
    });
  });

  it('refuses a body changed after signing as a mismatch', () => {
    expect(checkSignature(signed(NOW_S), `${BODY}&x=1`, SECRET, NOW_MS)).toEqual({
      ok: false,
      reason: 'mismatch',
    });
  });

  it('refuses a body signed over five minutes ago as stale', () => {
    expect(checkSignature(signed(NOW_S - 301), BODY, SECRET, NOW_MS)).toEqual({
      ok: false,
      reason: 'stale',
    });
  });

  it('refuses a body signed over five minutes ahead as stale', () => {
    expect(checkSignature(signed(NOW_S + 301), BODY, SECRET, NOW_MS)).toEqual({
      ok: false,
      reason: 'stale',
    });
  });

  it('refuses a request without signature headers as unsigned', () => {
    expect(checkSignature({}, BODY, SECRET, NOW_MS)).toEqual({ ok: false, reason: 'unsigned' });
  });
});
