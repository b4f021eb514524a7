/**
 * A tiny HTTP server standing in for the app: it records what the driver sends and answers as
 * told. Signatures are checked here with node:crypto alone, independently of the driver's code.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake app received. */
export interface ReceivedRequest {
  url: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
}

/** How the fake app answers a request: a reply, or 'hang' to never answer. */
export type FakeReply =
  | { status?: number; body?: string; headers?: Record<string, string> }
  | 'hang';

/** A running fake app. */
export interface FakeApp {
  url: string;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

/** Starts a fake app on loopback; `reply` decides each answer (200 with an empty body by default). */
export async function startFakeApp(
  reply: (request: ReceivedRequest, index: number) => FakeReply = () => ({}),
): Promise<FakeApp> {
  const requests: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        url: req.url ?? '/',
        headers: req.headers,
        rawBody: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(request);
      const answer = reply(request, requests.length - 1);
      if (answer === 'hang') return;
      res.writeHead(answer.status ?? 200, answer.headers ?? {});
      res.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/slack/events`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Whether a request carries a valid Slack signature made within the last five minutes. */
export function verifiesWithSecret(
  secret: string,
  request: ReceivedRequest,
  nowSec = Math.floor(Date.now() / 1000),
): boolean {
  const timestamp = Number(request.headers['x-slack-request-timestamp']);
  const signature = request.headers['x-slack-signature'];
  if (!Number.isFinite(timestamp) || typeof signature !== 'string') return false;
  if (Math.abs(nowSec - timestamp) > 300) return false;
  const expected = `v0=${createHmac('sha256', secret)
    .update(`v0:${timestamp}:${request.rawBody}`)
    .digest('hex')}`;
  return (
    signature.length === expected.length &&
    timingSafeEqual(Buffer.from(signature), Buffer.from(expected))
  );
}

/** The JSON `payload` field of a form-encoded interaction body. */
export function interactionPayload(request: ReceivedRequest): Record<string, unknown> {
  const payload = new URLSearchParams(request.rawBody).get('payload');
  return JSON.parse(payload ?? 'null') as Record<string, unknown>;
}
