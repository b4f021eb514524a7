/** /healthz, /readyz and /metrics on the app's HTTP port in HTTP mode, against the real stack. */
import { afterEach, describe, expect, it } from 'vitest';
import { defaultIds } from '../../tools/slack-double/index.ts';
import { eventually } from '../support/eventually.ts';
import { sample } from '../support/prometheus-text.ts';
import { type Stack, startStack } from '../support/stack.ts';

const { alice, bob, itHelp } = defaultIds;

describe('operations endpoints in HTTP mode', () => {
  let stack: Stack;
  afterEach(async () => {
    await stack.close();
  });

  it('answers /healthz with ok', async () => {
    stack = await startStack();
    const health = await stack.app.get('/healthz');
    expect(health.status).toBe(200);
    expect(JSON.parse(health.text)).toEqual({ status: 'ok' });
  });

  it('answers /readyz 200 when Redis, the platform and Slack all answer', async () => {
    stack = await startStack();
    const ready = await stack.app.get('/readyz');
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.text)).toMatchObject({
      status: 'ready',
      checks: {
        redis: { ok: true },
        platform: { ok: true },
        slack: { ok: true, detail: 'auth.test passed' },
        shutdown: { ok: true },
      },
    });
  });

  it('answers /readyz 503 when the platform is down and has not answered for a minute', async () => {
    stack = await startStack();
    stack.emulator.setFaults({ down: true });
    const ready = await stack.app.get('/readyz');
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.text)).toMatchObject({
      status: 'not_ready',
      checks: { platform: { ok: false }, redis: { ok: true } },
    });
  });

  it('answers /readyz 503 once shutting down, while /healthz stays ok', async () => {
    stack = await startStack();
    stack.app.readiness.markShuttingDown();
    const ready = await stack.app.get('/readyz');
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.text)).toMatchObject({
      checks: { shutdown: { ok: false, detail: 'shutting down' } },
    });
    expect((await stack.app.get('/healthz')).status).toBe(200);
  });

  it('counts a slash command by kind and outcome, with its ack latency, in /metrics', async () => {
    stack = await startStack();
    const answer = await stack.driver.slashCommand({
      userId: alice,
      channelId: itHelp,
      text: 'help',
    });
    expect(answer.status).toBe(200);
    const metrics = await stack.app.get('/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.contentType).toContain('text/plain');
    expect(
      sample(metrics.text, 'servicedesk_slack_requests_total', { kind: 'command', outcome: 'ok' }),
    ).toBe(1);
    expect(sample(metrics.text, 'servicedesk_slack_ack_seconds_count', { kind: 'command' })).toBe(
      1,
    );
  });

  it('counts a redelivered event as a suppressed duplicate', async () => {
    stack = await startStack();
    const dm = stack.double.workspace.openIm(bob);
    const message = stack.double.workspace.postMessage(dm, { user: bob, text: 'VPN drops' });
    const event = { ...message, channel: dm, channel_type: 'im', event_ts: message.ts };
    const deliveries = await stack.driver.deliverWithRetries(event, 2);
    expect(deliveries.map((d) => d.status)).toEqual([200, 200]);
    const text = (await stack.app.get('/metrics')).text;
    expect(
      sample(text, 'servicedesk_slack_duplicates_suppressed_total', { intent: 'create_ticket' }),
    ).toBe(1);
    expect(sample(text, 'servicedesk_slack_requests_total', { kind: 'event', outcome: 'ok' })).toBe(
      2,
    );
  });

  it('reports the outbox depth and age while the platform is down, and platform requests by operation and status', async () => {
    stack = await startStack();
    stack.emulator.setFaults({ down: true });
    const dm = stack.double.workspace.openIm(alice);
    await stack.driver.userPosts({ userId: alice, channelId: dm, text: 'Laptop will not boot' });
    const text = await eventually(
      async () => {
        const body = (await stack.app.get('/metrics')).text;
        return (
          (sample(body, 'servicedesk_slack_platform_requests_total', {
            operation: 'createTicket',
            status: '503',
          }) ?? 0) > 0 && body
        );
      },
      10_000,
      'a refused createTicket',
    );
    expect(sample(text, 'servicedesk_slack_outbox_depth')).toBe(1);
    expect(sample(text, 'servicedesk_slack_outbox_oldest_age_seconds')).toBeGreaterThan(0);
  });

  it('shows the rate limit the platform last reported', async () => {
    stack = await startStack();
    await stack.driver.slashCommand({ userId: alice, channelId: itHelp, text: 'mine' });
    const text = await eventually(
      async () => {
        const body = (await stack.app.get('/metrics')).text;
        const remaining = sample(body, 'servicedesk_slack_platform_rate_limit_remaining');
        return remaining !== undefined && !Number.isNaN(remaining) && body;
      },
      5_000,
      'a rate-limit figure',
    );
    expect(sample(text, 'servicedesk_slack_platform_rate_limit_remaining')).toBeGreaterThan(0);
    expect(
      sample(text, 'servicedesk_slack_platform_requests_total', {
        operation: 'listTickets',
        status: '200',
      }),
    ).toBeGreaterThan(0);
  });
});
