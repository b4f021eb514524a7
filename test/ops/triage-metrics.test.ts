/** The triage cards' metrics: how soon a new ticket's card came, and channels that took none. */
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/ops/metrics.ts';
import { sample } from '../support/prometheus-text.ts';

describe('triage metrics', () => {
  it('shows the triage cards’ latency and the triage channels found taking no posts', async () => {
    const metrics = createMetrics({ registry: new Registry(), processMetrics: false, sources: {} });
    metrics.observeTriageCard(4);
    metrics.observeTriageCard(40);
    metrics.countTriageChannelGone();
    const text = await metrics.registry.metrics();
    expect(sample(text, 'servicedesk_slack_triage_card_latency_seconds_count', {})).toBe(2);
    expect(sample(text, 'servicedesk_slack_triage_card_latency_seconds_sum', {})).toBe(44);
    expect(sample(text, 'servicedesk_slack_triage_channel_gone_total', {})).toBe(1);
  });
});
