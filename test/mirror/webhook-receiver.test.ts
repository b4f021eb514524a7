import type { IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { webhookSignature } from '../../src/contract/webhook.ts';
import { TicketHints } from '../../src/mirror/ticket-hints.ts';
import { webhookHandler } from '../../src/mirror/webhook-receiver.ts';
import { createMemoryStores } from '../../src/store/index.ts';

const T0 = 1_767_225_600_000;
const SECRET = 'test-webhook-secret';
const THREAD = { channel: 'C0ITHELP', threadTs: '1.1' };
const silent = { warn() {}, debug() {} };

function setUp() {
  const now = () => T0;
  const stores = createMemoryStores({ now });
  const hints = new TicketHints({ stores, now });
  const handler = webhookHandler({
    secret: SECRET,
    hints,
    claims: stores.claims,
    now,
    logger: silent,
  });
  /** Delivers one signed event and resolves with the answer's status. */
  const deliver = (id: string, type: string) =>
    new Promise<number>((resolve) => {
      const body = JSON.stringify({
        id,
        type,
        ticket_id: 'IT-1',
        occurred_at: new Date(T0).toISOString(),
      });
      const timestamp = Math.floor(T0 / 1_000);
      const req = Object.assign(new PassThrough(), {
        headers: {
          'x-servicedesk-timestamp': String(timestamp),
          'x-servicedesk-signature': webhookSignature(SECRET, timestamp, body),
        },
      });
      let status = 0;
      const res = {
        writeHead(code: number) {
          status = code;
          return res;
        },
        end() {
          resolve(status);
          return res;
        },
      };
      handler(req as unknown as IncomingMessage, res as unknown as ServerResponse);
      req.end(body);
    });
  return { stores, deliver };
}

describe('webhook receiver', () => {
  it('records a ticket.updated delivery as a change the platform announced, which its look ranks with a hinted message', async () => {
    const { stores, deliver } = setUp();
    await stores.links.link('IT-1', THREAD);
    expect(await deliver('evt_1', 'ticket.updated')).toBe(200);
    expect(await stores.mirror.state('IT-1')).toMatchObject({ announcedAt: T0, hintedAt: T0 });
  });

  it('records a ticket.message_added delivery as a message hint alone', async () => {
    const { stores, deliver } = setUp();
    await stores.links.link('IT-1', THREAD);
    expect(await deliver('evt_1', 'ticket.message_added')).toBe(200);
    expect(await stores.mirror.state('IT-1')).toMatchObject({
      messageHintedAt: T0,
      hintedAt: 0,
      announcedAt: 0,
    });
  });
});
