/**
 * Measuring the Slack side without touching its listeners: a global Bolt middleware times
 * every request to its acknowledgement, and an outbox wrapper counts deliveries it already knew.
 */
import { performance } from 'node:perf_hooks';
import type { AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import type { Outbox, Stores } from '../store/types.ts';
import type { SlackMetrics, SlackRequestKind } from './metrics.ts';

const INTERACTION_KINDS: Readonly<Record<string, SlackRequestKind>> = {
  block_actions: 'action',
  interactive_message: 'action',
  view_submission: 'view',
  view_closed: 'view',
  shortcut: 'shortcut',
  message_action: 'shortcut',
  block_suggestion: 'options',
};

/** The kind of a Slack request, from its body as Bolt parsed it. */
export function slackRequestKind(body: unknown): SlackRequestKind {
  if (typeof body !== 'object' || body === null) return 'other';
  const { type, command } = body as { type?: unknown; command?: unknown };
  if (typeof command === 'string') return 'command';
  if (type === 'event_callback') return 'event';
  return (typeof type === 'string' ? INTERACTION_KINDS[type] : undefined) ?? 'other';
}

/**
 * A global middleware that times each request until its listeners finish. The app answers
 * Slack only then (HTTP mode processes before responding; Socket Mode listeners ack last), so
 * this is the ack latency less the receiver's parsing and signature check, a few microseconds.
 */
export function slackRequestMetrics(metrics: SlackMetrics): Middleware<AnyMiddlewareArgs> {
  return async ({ body, next }) => {
    const started = performance.now();
    const kind = slackRequestKind(body);
    try {
      await next();
    } catch (error) {
      metrics.observeSlackRequest(kind, 'error', performance.now() - started);
      throw error;
    }
    metrics.observeSlackRequest(kind, 'ok', performance.now() - started);
  };
}

/**
 * The outbox, counting every enqueue that found its delivery key already known. A plain wrapper
 * that names each method: a method added to `Outbox` is a compile error here until it is passed on.
 */
export function countingDuplicates(outbox: Outbox, metrics: SlackMetrics): Outbox {
  return {
    async enqueue(deliveryKey, kind, payload, opts) {
      const outcome = await outbox.enqueue(deliveryKey, kind, payload, opts);
      if (!outcome.enqueued) metrics.countDuplicate(kind);
      return outcome;
    },
    amend: (deliveryKey, kind, payload, version) =>
      outbox.amend(deliveryKey, kind, payload, version),
    delivery: (deliveryKey) => outbox.delivery(deliveryKey),
    reserve: (workerId, leaseMs) => outbox.reserve(workerId, leaseMs),
    complete: (lease, result) => outbox.complete(lease, result),
    retryAt: (lease, atMs, error) => outbox.retryAt(lease, atMs, error),
    fail: (lease, error) => outbox.fail(lease, error),
    stats: (now) => outbox.stats(now),
    deadLetters: (limit) => outbox.deadLetters(limit),
    deadLetter: (id) => outbox.deadLetter(id),
    retryDeadLetter: (id) => outbox.retryDeadLetter(id),
    dropDeadLetter: (id) => outbox.dropDeadLetter(id),
    watch: (listener) => outbox.watch(listener),
  };
}

/** The stores with the outbox counting duplicates; every other store passes through. */
export function withDuplicateCounting<S extends Stores>(stores: S, metrics: SlackMetrics): S {
  return { ...stores, outbox: countingDuplicates(stores.outbox, metrics) };
}
