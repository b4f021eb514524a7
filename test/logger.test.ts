import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, scrubSecrets } from '../src/logger.ts';

function capture(secrets: string[] = []) {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: createLogger({ level: 'debug', secrets, destination }), lines };
}

describe('logger redaction', () => {
  it('redacts tokens and keys in structured fields at any depth', () => {
    const { logger, lines } = capture();
    logger.info(
      {
        token: 'xoxb-top-level',
        config: { slack: { botToken: 'xoxb-nested', signingSecret: 'sign-secret' } },
        headers: { authorization: 'AccessKey sd_acme_rw' },
        serviceDesk: { apiKey: 'sd_acme_rw' },
      },
      'starting',
    );
    const out = lines.join('');
    for (const secret of ['xoxb-top-level', 'xoxb-nested', 'sign-secret', 'sd_acme_rw']) {
      expect(out).not.toContain(secret);
    }
    expect(out).toContain('[Redacted]');
  });

  it('scrubs secrets from error messages and stacks', () => {
    const { logger, lines } = capture(['sd_super_secret_key']);
    logger.error(
      { err: new Error('request failed with AccessKey sd_super_secret_key and xoxb-123-abc') },
      'boom',
    );
    const out = lines.join('');
    expect(out).not.toContain('sd_super_secret_key');
    expect(out).not.toContain('xoxb-123-abc');
    expect(JSON.parse(out).err.message).toBe(
      'request failed with AccessKey [Redacted] and [Redacted]',
    );
  });

  it('scrubs tokens from the message text', () => {
    const { logger, lines } = capture();
    logger.warn('token was xapp-1-A0-secret');
    expect(lines.join('')).not.toContain('xapp-1-A0-secret');
  });

  it('leaves ordinary text alone', () => {
    expect(scrubSecrets('ticket IT-12 created for alice@acme.example')).toBe(
      'ticket IT-12 created for alice@acme.example',
    );
  });
});
