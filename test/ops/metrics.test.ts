/** The metrics objects, their registry and the Slack request middleware, without a server. */
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/ops/metrics.ts';
import {
  countingDuplicates,
  slackRequestKind,
  slackRequestMetrics,
} from '../../src/ops/slack-request-metrics.ts';
import { createMemoryStores } from '../../src/store/index.ts';
import { sample } from '../support/prometheus-text.ts';

function metricsOnOwnRegistry(sources = {}) {
  return createMetrics({ registry: new Registry(), processMetrics: false, sources });
}

describe('metrics', () => {
  it('names the kind of every Slack request body', () => {
    expect(slackRequestKind({ command: '/ticket' })).toBe('command');
    expect(slackRequestKind({ type: 'event_callback' })).toBe('event');
    expect(slackRequestKind({ type: 'block_actions' })).toBe('action');
    expect(slackRequestKind({ type: 'view_submission' })).toBe('view');
    expect(slackRequestKind({ type: 'message_action' })).toBe('shortcut');
    expect(slackRequestKind({ type: 'shortcut' })).toBe('shortcut');
    expect(slackRequestKind({ type: 'block_suggestion' })).toBe('options');
    expect(slackRequestKind({ type: 'url_verification' })).toBe('other');
  });

  it('keeps each app’s figures on its own registry', async () => {
    const a = metricsOnOwnRegistry();
    const b = metricsOnOwnRegistry();
    a.countDuplicate('create_ticket');
    const textB = await b.registry.metrics();
    expect(
      sample(textB, 'servicedesk_slack_duplicates_suppressed_total', { intent: 'create_ticket' }),
    ).toBeUndefined();
    expect(
      sample(await a.registry.metrics(), 'servicedesk_slack_duplicates_suppressed_total', {
        intent: 'create_ticket',
      }),
    ).toBe(1);
  });

  it('counts a listener error as outcome error and passes the error on', async () => {
    const metrics = metricsOnOwnRegistry();
    const middleware = slackRequestMetrics(metrics);
    const failure = new Error('outbox unavailable');
    const args = {
      body: { type: 'view_submission' },
      next: async () => {
        throw failure;
      },
    } as unknown as Parameters<typeof middleware>[0];
    await expect(middleware(args)).rejects.toBe(failure);
    const text = await metrics.registry.metrics();
    expect(
      sample(text, 'servicedesk_slack_requests_total', { kind: 'view', outcome: 'error' }),
    ).toBe(1);
  });

  it('counts an enqueue of a known delivery key as a suppressed duplicate', async () => {
    const metrics = metricsOnOwnRegistry();
    const outbox = countingDuplicates(createMemoryStores().outbox, metrics);
    await outbox.enqueue('A1:T1:Ev1', 'add_message', {});
    await outbox.enqueue('A1:T1:Ev1', 'add_message', {});
    expect((await outbox.stats()).depth).toBe(1);
    const text = await metrics.registry.metrics();
    expect(
      sample(text, 'servicedesk_slack_duplicates_suppressed_total', { intent: 'add_message' }),
    ).toBe(1);
  });

  it('passes every other outbox call through to the store unchanged, duplicates counted or not', async () => {
    const metrics = metricsOnOwnRegistry();
    const outbox = countingDuplicates(createMemoryStores().outbox, metrics);
    await outbox.enqueue('A1:T1:Ev2', 'add_message', { text: 'kept' });
    const lease = await outbox.reserve('worker-1', 10_000);
    expect(lease?.payload).toEqual({ text: 'kept' });
    expect(lease && (await outbox.complete(lease))).toBe(true);
    expect(await outbox.stats()).toMatchObject({ depth: 0, inFlight: 0 });
  });

  it('keeps the last outbox figures and counts the failure when the outbox cannot be read', async () => {
    let fail = false;
    const metrics = metricsOnOwnRegistry({
      outboxStats: async () => {
        if (fail) throw new Error('Redis is away');
        return { depth: 4, oldestAgeMs: 2_500, inFlight: 1 };
      },
    });
    let text = await metrics.registry.metrics();
    expect(sample(text, 'servicedesk_slack_outbox_depth')).toBe(4);
    expect(sample(text, 'servicedesk_slack_outbox_oldest_age_seconds')).toBe(2.5);
    fail = true;
    text = await metrics.registry.metrics();
    expect(sample(text, 'servicedesk_slack_outbox_depth')).toBe(4);
    expect(sample(text, 'servicedesk_slack_outbox_stats_errors_total')).toBe(1);
  });

  it('shows what the mirror and the shared rate budget report', async () => {
    const metrics = metricsOnOwnRegistry();
    metrics.setRateBudgetRemaining('minute', 73);
    metrics.setRateBudgetRemaining('hour', 640);
    metrics.observeMirrorLatency(3.2);
    metrics.setLinkedTickets({ open: 5, resolved: 2 });
    metrics.setLinkedTickets({ open: 4 });
    const text = await metrics.registry.metrics();
    expect(sample(text, 'servicedesk_slack_rate_budget_remaining', { window: 'minute' })).toBe(73);
    expect(sample(text, 'servicedesk_slack_rate_budget_remaining', { window: 'hour' })).toBe(640);
    expect(sample(text, 'servicedesk_slack_mirror_latency_seconds_bucket', { le: '5' })).toBe(1);
    expect(sample(text, 'servicedesk_slack_linked_tickets', { state: 'open' })).toBe(4);
    expect(sample(text, 'servicedesk_slack_linked_tickets', { state: 'resolved' })).toBeUndefined();
  });

  it('counts people’s refused requests by reason and request, each from 0', async () => {
    const metrics = metricsOnOwnRegistry();
    metrics.countPeopleRefusal('fair_share', 'lookup');
    metrics.countPeopleRefusal('fair_share', 'lookup');
    metrics.observeBudgetWait(0.3, 'granted');
    metrics.countPeopleAnswer('cache', 'lookup');
    const text = await metrics.registry.metrics();
    const refusals = 'servicedesk_slack_people_refusals_total';
    expect(sample(text, refusals, { reason: 'fair_share', request: 'lookup' })).toBe(2);
    expect(sample(text, refusals, { reason: 'budget', request: 'home' })).toBe(0);
    expect(
      sample(text, 'servicedesk_slack_people_budget_wait_seconds_bucket', {
        le: '0.5',
        outcome: 'granted',
      }),
    ).toBe(1);
    expect(
      sample(text, 'servicedesk_slack_people_answers_total', {
        source: 'cache',
        request: 'lookup',
      }),
    ).toBe(1);
  });

  it('labels a platform attempt that got no answer as no_answer', async () => {
    const metrics = metricsOnOwnRegistry();
    metrics.observePlatformResponse('listDesks', undefined);
    metrics.observePlatformResponse('listDesks', 200);
    const text = await metrics.registry.metrics();
    expect(
      sample(text, 'servicedesk_slack_platform_requests_total', {
        operation: 'listDesks',
        status: 'no_answer',
      }),
    ).toBe(1);
    expect(
      sample(text, 'servicedesk_slack_platform_requests_total', {
        operation: 'listDesks',
        status: '200',
      }),
    ).toBe(1);
  });
});
