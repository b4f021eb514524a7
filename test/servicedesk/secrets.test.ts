import { inspect } from 'node:util';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceDeskError } from '../../src/servicedesk/index.ts';
import { type Harness, harness, KEY, rejectionOf, ticket } from './fixtures.ts';

/** Every way an error can be shown: message, stack, inspect (hidden fields too) and JSON. */
function renderings(error: unknown): string[] {
  return [
    String(error),
    (error as Error).stack ?? '',
    inspect(error, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
    JSON.stringify(error),
  ];
}

describe('the access key', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('never appears in logs, error messages, error fields, inspect or JSON, however requests fail', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) });
    h = harness({
      logger,
      retry: { maxAttempts: 2 },
      onRateLimit: () => {
        throw new Error(`listener saw AccessKey ${KEY}`);
      },
    });
    const echo = `AccessKey ${KEY}`;
    const get = (path: string) => ({ path, method: 'GET' });

    // The server echoes the key in the body and in a header.
    h.pool
      .intercept(get('/api/v1/tickets/IT-1/'))
      .reply(401, { detail: `Unknown key ${echo}` }, { headers: { 'x-echo-authorization': echo } });
    // Retried server errors (warn logs), then the last one thrown.
    h.pool.intercept(get('/api/v1/tickets/IT-2/')).reply(500, `upstream rejected ${echo}`).times(2);
    // A 422 whose issue quotes the input.
    h.pool.intercept({ path: '/api/v1/tickets/', method: 'POST' }).reply(422, {
      detail: [{ loc: ['body', 'title'], msg: `bad: ${KEY}`, type: 'value_error', input: KEY }],
    });
    // A transport error whose message carries the request headers.
    h.pool
      .intercept(get('/api/v1/tickets/IT-3/'))
      .replyWithError(
        Object.assign(new Error(`socket closed; sent ${echo}`), { code: 'ECONNRESET' }),
      )
      .times(2);
    // A timeout that does the same.
    h.pool
      .intercept(get('/api/v1/tickets/IT-4/'))
      .replyWithError(
        Object.assign(new Error(`headers timeout for ${echo}`), {
          code: 'UND_ERR_HEADERS_TIMEOUT',
        }),
      )
      .times(2);
    // A success with rate-limit headers (the listener throws) and a broken body.
    h.pool.intercept(get('/api/v1/tickets/IT-5/')).reply(
      200,
      { ...ticket(), status: 1 },
      {
        headers: {
          'x-ratelimit-limit': '100',
          'x-ratelimit-remaining': '1',
          'x-ratelimit-reset': '1767225660',
        },
      },
    );

    const { client } = h;
    const failures = [
      client.getTicket('IT-1'),
      client.getTicket('IT-2'),
      client.createTicket({ title: KEY }),
      client.getTicket('IT-3'),
      client.getTicket('IT-4'),
      client.getTicket('IT-5'),
      client.getTicket('IT-6'), // no interceptor: the mock's own "not matched" error
      client.getTicket(`${KEY}-1`), // not a ticket ID
      client.listDesks({ signal: AbortSignal.abort() }),
    ];
    const errors: unknown[] = [];
    for (const failure of failures) errors.push(await rejectionOf(failure));

    expect(errors).toHaveLength(failures.length);
    for (const error of errors) {
      expect(error).toBeInstanceOf(ServiceDeskError);
      for (const text of renderings(error)) expect(text).not.toContain(KEY);
    }
    // The key was really sent, so its absence above means something.
    expect(h.calls()[0]?.headers?.authorization).toBe(echo);
    expect(lines.length).toBeGreaterThan(5);
    expect(lines.join('\n')).not.toContain(KEY);
  });

  it('does not show in inspect or JSON of the client', () => {
    h = harness();
    expect(inspect(h.client, { depth: Number.POSITIVE_INFINITY, showHidden: true })).not.toContain(
      KEY,
    );
    expect(JSON.stringify(h.client)).not.toContain(KEY);
  });
});
