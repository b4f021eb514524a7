/**
 * A wrong SLACK_SIGNING_SECRET, as a running app sees it: every Slack request fails the
 * signature check. Over real HTTP against the app the runtime builds, and the reporter alone on
 * a clock the test moves.
 */
import { createHmac } from 'node:crypto';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/ops/metrics.ts';
import {
  SignatureFailures,
  STALE_SIGNATURE_LINE,
  WRONG_SECRET_LINE,
} from '../../src/ops/signature-failures.ts';
import { defaultIds, SlackDriver } from '../../tools/slack-double/index.ts';
import { sample } from '../support/prometheus-text.ts';
import { SIGNING_SECRET, type Stack, startStack } from '../support/stack.ts';

interface LogLine {
  level: number;
  msg: string;
  reason?: string;
  failures?: number;
}

function parsed(lines: string[]): LogLine[] {
  return lines.map((line) => JSON.parse(line) as LogLine);
}

/** A /ticket slash command signed with `secret` at `timestampS`, posted to the app. */
async function slashCommandSigned(port: number, secret: string, timestampS: number) {
  const body = new URLSearchParams({
    command: '/ticket',
    text: 'help',
    user_id: defaultIds.alice,
    channel_id: defaultIds.itHelp,
    team_id: 'T0001',
    trigger_id: 'trigger-1',
    response_url: 'http://127.0.0.1:9/response',
  }).toString();
  const signature = `v0=${createHmac('sha256', secret).update(`v0:${timestampS}:${body}`).digest('hex')}`;
  const response = await request(`http://127.0.0.1:${port}/slack/events`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-slack-signature': signature,
      'x-slack-request-timestamp': String(timestampS),
    },
    body,
  });
  await response.body.text();
  return response.statusCode;
}

describe('requests that fail the signature check, over HTTP', () => {
  let stack: Stack | undefined;
  afterEach(async () => {
    await stack?.close();
    stack = undefined;
  });

  it('logs the likely wrong SLACK_SIGNING_SECRET once at error and counts every request in /metrics', async () => {
    stack = await startStack({ logLevel: 'info' });
    const { logs } = stack;
    const wrong = new SlackDriver({
      appUrl: `http://127.0.0.1:${stack.app.port}/slack/events`,
      signingSecret: 'not-this-apps-secret',
      double: stack.double,
    });
    try {
      for (let i = 0; i < 3; i++) {
        const result = await wrong.slashCommand({
          userId: defaultIds.alice,
          channelId: defaultIds.itHelp,
          command: '/ticket',
          text: 'help',
        });
        expect(result.status).toBe(401);
      }
    } finally {
      await wrong.close();
    }
    const errors = parsed(logs).filter((line) => line.level === 50);
    expect(errors).toEqual([expect.objectContaining({ msg: WRONG_SECRET_LINE, failures: 1 })]);
    const metrics = await stack.app.get('/metrics');
    expect(
      sample(metrics.text, 'servicedesk_slack_signature_failures_total', { reason: 'mismatch' }),
    ).toBe(3);
  });

  it('tells a signature made over five minutes ago from a wrong secret, and says to check the clock', async () => {
    stack = await startStack({ logLevel: 'info' });
    const { logs } = stack;
    const tenMinutesAgo = Math.floor(Date.now() / 1000) - 600;
    expect(await slashCommandSigned(stack.app.port, SIGNING_SECRET, tenMinutesAgo)).toBe(401);
    const errors = parsed(logs).filter((line) => line.level === 50);
    expect(errors.map((line) => line.msg)).toEqual([STALE_SIGNATURE_LINE]);
    const metrics = await stack.app.get('/metrics');
    expect(
      sample(metrics.text, 'servicedesk_slack_signature_failures_total', { reason: 'stale' }),
    ).toBe(1);
    expect(
      sample(metrics.text, 'servicedesk_slack_signature_failures_total', { reason: 'mismatch' }),
    ).toBe(0);
  });

  it('counts nothing for a request signed with the right secret', async () => {
    stack = await startStack();
    const result = await stack.driver.slashCommand({
      userId: defaultIds.alice,
      channelId: defaultIds.itHelp,
      command: '/ticket',
      text: 'help',
    });
    expect(result.status).toBe(200);
    const metrics = await stack.app.get('/metrics');
    expect(
      sample(metrics.text, 'servicedesk_slack_signature_failures_total', { reason: 'mismatch' }),
    ).toBe(0);
  });
});

describe('the signature failure reporter', () => {
  function reporter() {
    const lines: string[] = [];
    const logger = pino(
      { level: 'info' },
      new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    );
    const metrics = createMetrics({ registry: new Registry(), processMetrics: false });
    let now = 1_000_000;
    const failures = new SignatureFailures({ logger, metrics, now: () => now });
    return {
      failures,
      metrics,
      lines,
      advance: (ms: number) => {
        now += ms;
      },
    };
  }

  it('logs again after a minute, with how many failed since the last line', () => {
    const { failures, lines, advance } = reporter();
    failures.record('mismatch');
    for (let i = 0; i < 4; i++) {
      advance(10_000);
      failures.record('mismatch');
    }
    advance(20_000);
    failures.record('mismatch');
    expect(parsed(lines).map((line) => [line.msg, line.failures])).toEqual([
      [WRONG_SECRET_LINE, 1],
      [WRONG_SECRET_LINE, 5],
    ]);
  });

  it('counts an unsigned request without logging it', async () => {
    const { failures, metrics, lines } = reporter();
    failures.record('unsigned');
    expect(lines).toEqual([]);
    expect(
      sample(await metrics.registry.metrics(), 'servicedesk_slack_signature_failures_total', {
        reason: 'unsigned',
      }),
    ).toBe(1);
  });
});
