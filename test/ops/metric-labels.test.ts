/**
 * No metric carries a label whose values are unbounded: installed in many workspaces (issue 29),
 * a team id or enterprise id as a label would make a series per workspace, and Prometheus pays
 * for every series. Every label name of every metric must be in the list below, each with the
 * reason its values are few; a new label is added here only with that reason.
 */
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { type AppMetrics, createMetrics } from '../../src/ops/metrics.ts';
import { slackRequestMetrics } from '../../src/ops/slack-request-metrics.ts';
import { defaultIds } from '../../tools/slack-double/index.ts';
import { type Stack, startStack } from '../support/stack.ts';

/** Every label name a metric may have, and what bounds its values. */
const BOUNDED_LABELS: Readonly<Record<string, string>> = {
  kind: 'SlackRequestKind (7 values); Node’s GC kinds',
  outcome: 'ok/error, granted/refused, or the webhook handler’s outcomes (a fixed list)',
  intent: 'the outbox entry kinds the code defines',
  reason: 'SignatureFailureReason or PeopleRefusalReason',
  operation: 'the platform client’s operations (its methods)',
  status: 'HTTP status codes, or no_answer',
  window: 'minute or hour',
  state: 'the platform’s ticket states',
  request: 'the kinds of people’s reads (lookup, mine, home...)',
  source: 'platform, cache or known',
  // Node's own process metrics (prom-client's collectDefaultMetrics).
  type: 'Node’s active resource types',
  space: 'V8’s heap spaces',
  version: 'the one Node version running',
  major: 'the one Node version running',
  minor: 'the one Node version running',
  patch: 'the one Node version running',
};

/** The label names each metric of a registry declares, as `metric:label`. */
function labelNamesOf(registry: Registry): string[] {
  return registry
    .getMetricsAsArray()
    .flatMap((metric) =>
      ((metric as unknown as { labelNames?: string[] }).labelNames ?? []).map(
        (label) => `${(metric as unknown as { name: string }).name}:${label}`,
      ),
    );
}

/** The `metric:label` pairs whose label is not in the bounded list. */
function outsideTheList(registry: Registry): string[] {
  return labelNamesOf(registry).filter(
    (pair) => !(pair.slice(pair.indexOf(':') + 1) in BOUNDED_LABELS),
  );
}

// Each reporting method once, so that every labelled metric has a series.
function reportEverything(metrics: AppMetrics): void {
  metrics.observeSlackRequest('event', 'ok', 2);
  metrics.countDuplicate('create_ticket');
  metrics.countSignatureFailure('mismatch');
  metrics.observePlatformResponse('listTickets', 200);
  metrics.setRateBudgetRemaining('minute', 90);
  metrics.observeMirrorLatency(3);
  metrics.setLinkedTickets({ open: 2 });
  metrics.countWebhook('scheduled');
  metrics.observeTriageCard(1);
  metrics.countTriageChannelGone();
  metrics.observeClockWarning(1);
  metrics.countPeopleRefusal('fair_share', 'lookup');
  metrics.observeBudgetWait(0.1, 'granted');
  metrics.countPeopleAnswer('cache', 'mine');
}

let stack: Stack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

describe('metric labels', () => {
  it('gives every metric, Node’s own included, only label names from the bounded list', () => {
    const metrics = createMetrics({ registry: new Registry(), processMetrics: true });
    reportEverything(metrics);
    expect(labelNamesOf(metrics.registry).length).toBeGreaterThan(10);
    expect(outsideTheList(metrics.registry)).toEqual([]);
  });

  it('counts requests from many workspaces without their team or enterprise ids in any series', async () => {
    const metrics = createMetrics({ registry: new Registry(), processMetrics: false });
    const middleware = slackRequestMetrics(metrics);
    for (let n = 1; n <= 20; n++) {
      const team = `T9${String(n).padStart(4, '0')}`;
      await middleware({
        body: {
          type: 'event_callback',
          team_id: team,
          enterprise_id: 'E9ORG',
          authorizations: [{ team_id: team, enterprise_id: 'E9ORG' }],
          event: { type: 'app_home_opened', user: 'U9PERSON' },
        },
        next: async () => undefined,
      } as never);
    }
    const text = await metrics.registry.metrics();
    expect(text).toContain('servicedesk_slack_requests_total{kind="event",outcome="ok"} 20');
    expect(text).not.toMatch(/T9\d{4}|E9ORG|U9PERSON/);
  });

  it('serves /metrics from a running app with no label outside the list and no team id in it', async () => {
    stack = await startStack();
    const answer = await stack.driver.appHomeOpened({ userId: defaultIds.alice });
    expect(answer.status).toBe(200);
    expect(outsideTheList(stack.app.metrics.registry)).toEqual([]);
    const text = await (await fetch(`http://127.0.0.1:${stack.app.port}/metrics`)).text();
    expect(text).toContain('servicedesk_slack_requests_total{kind="event",outcome="ok"}');
    expect(text).not.toContain(defaultIds.team);
  });
});
