/**
 * The benchmark's traffic: who writes what, and when, on the platform's tickets.
 *
 * A hot ticket is a live conversation. Its requester writes in the Slack thread now and then
 * (Poisson, `requesterPerHour`); each message goes through the app (an interactive add) and is
 * answered: by the platform's AI agent after a delay drawn evenly from `aiDelayMinMs` to
 * `aiDelayMaxMs`, in `aiShare` of the cases, otherwise by a human agent after a human response
 * time (exponential, mean `humanReplyMeanMs`), whose answer comes with a status change half the
 * time. On top of that, agents and the AI agent also write on hot tickets unprompted, at random
 * (`hotUnpromptedPerHour`). A cold linked ticket only rarely hears from an agent
 * (`coldMessagesPerHour`) or changes status (`coldChangesPerHour`). A ticket no Slack thread
 * follows (filed by email or in the portal) is worked on by the desk in the dashboard:
 * `unlinkedMessagesPerHour` and `unlinkedChangesPerHour`.
 *
 * Every event is drawn before the run from a random stream of its own (`drawTraffic`), so every
 * strategy at one seed meets the same traffic: the same tickets, the same hot ones, the same
 * messages at the same times with the same answer delays. Only an answer's moment depends on
 * the run: it follows the requester's message once that has landed on the platform, which is
 * the same moment unless the app made the person wait for budget (`interactive_delayed`).
 *
 * The emulator's own AI agent answers a ticket once and then stays silent after handing it
 * off, which would leave a live conversation without its AI; so the benchmark plays the AI
 * agent itself and stops the emulator's.
 */
import type { EmulatorModel } from '../../tools/emulator/index.ts';
import type { Random } from '../../tools/emulator/random.ts';
import type { SimulatedClock } from './simulated-clock.ts';

/** The knobs of the traffic; the defaults are the model the README states. */
export interface TrafficModel {
  requesterPerHour: number;
  aiShare: number;
  aiDelayMinMs: number;
  aiDelayMaxMs: number;
  humanReplyMeanMs: number;
  hotUnpromptedPerHour: number;
  coldMessagesPerHour: number;
  coldChangesPerHour: number;
  unlinkedMessagesPerHour: number;
  unlinkedChangesPerHour: number;
}

/** The model the figures in the README come from. */
export const DEFAULT_TRAFFIC: TrafficModel = {
  requesterPerHour: 3,
  aiShare: 0.75,
  aiDelayMinMs: 1_500,
  aiDelayMaxMs: 20_000,
  humanReplyMeanMs: 90_000,
  hotUnpromptedPerHour: 0.5,
  coldMessagesPerHour: 0.05,
  coldChangesPerHour: 0.02,
  unlinkedMessagesPerHour: 0.2,
  unlinkedChangesPerHour: 0.05,
};

/** The human agents of the benchmark's tenant. */
export const AGENTS = [
  'sam.rivera@acme.example',
  'priya.shah@acme.example',
  'tom.becker@acme.example',
  'lena.kowalski@acme.example',
];

/** How a requester's message is answered. */
export type Answer =
  | { by: 'ai'; delayMs: number }
  | { by: 'agent'; delayMs: number; agent: string; withStatus: boolean };

/** One thing that happens on the platform, drawn before the run. */
export type TrafficEvent = { atMs: number; ticketId: string; n: number } & (
  | { kind: 'requester'; answer: Answer }
  | { kind: 'ai-note' }
  | { kind: 'agent-note'; agent: string }
  | { kind: 'status' }
);

/** Which tickets the traffic runs on. */
export interface TrafficTickets {
  /** Linked to a Slack thread. */
  linked: readonly string[];
  /** Linked and hot (a subset of `linked`). */
  hot: ReadonlySet<string>;
  /** On the platform, followed by no thread. */
  unlinked: readonly string[];
}

const HOUR_MS = 3_600_000;

function exponential(random: Random, meanMs: number): number {
  return -Math.log(1 - random()) * meanMs;
}

/**
 * Draws every event from `fromMs` to `toMs`, in time order. Each ticket's processes are drawn
 * in a fixed order, so the draws do not depend on anything the run does.
 */
export function drawTraffic(
  random: Random,
  tickets: TrafficTickets,
  traffic: TrafficModel,
  fromMs: number,
  toMs: number,
): TrafficEvent[] {
  // Numbered once in time order, below; 0 until then.
  const drawn: TrafficEvent[] = [];
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  // A Poisson process: each event an exponential time after the one before.
  const times = (perHour: number): number[] => {
    const at: number[] = [];
    if (perHour <= 0) return at;
    for (let t = fromMs + exponential(random, HOUR_MS / perHour); t < toMs; ) {
      at.push(Math.round(t));
      t += exponential(random, HOUR_MS / perHour);
    }
    return at;
  };
  for (const ticketId of tickets.linked) {
    if (tickets.hot.has(ticketId)) {
      for (const atMs of times(traffic.requesterPerHour)) {
        const answer: Answer =
          random() < traffic.aiShare
            ? {
                by: 'ai',
                delayMs: Math.round(
                  traffic.aiDelayMinMs + random() * (traffic.aiDelayMaxMs - traffic.aiDelayMinMs),
                ),
              }
            : {
                by: 'agent',
                delayMs: Math.round(exponential(random, traffic.humanReplyMeanMs)),
                agent: pick(AGENTS),
                withStatus: random() < 0.5,
              };
        drawn.push({ atMs, ticketId, n: 0, kind: 'requester', answer });
      }
      for (const atMs of times(traffic.hotUnpromptedPerHour)) {
        drawn.push(
          random() < 0.5
            ? { atMs, ticketId, n: 0, kind: 'ai-note' }
            : { atMs, ticketId, n: 0, kind: 'agent-note', agent: pick(AGENTS) },
        );
      }
    } else {
      for (const atMs of times(traffic.coldMessagesPerHour)) {
        drawn.push({ atMs, ticketId, n: 0, kind: 'agent-note', agent: pick(AGENTS) });
      }
      for (const atMs of times(traffic.coldChangesPerHour)) {
        drawn.push({ atMs, ticketId, n: 0, kind: 'status' });
      }
    }
  }
  for (const ticketId of tickets.unlinked) {
    for (const atMs of times(traffic.unlinkedMessagesPerHour)) {
      drawn.push({ atMs, ticketId, n: 0, kind: 'agent-note', agent: pick(AGENTS) });
    }
    for (const atMs of times(traffic.unlinkedChangesPerHour)) {
      drawn.push({ atMs, ticketId, n: 0, kind: 'status' });
    }
  }
  // Stable: events at one millisecond keep the order they were drawn in.
  const ordered = drawn
    .map((event, index) => ({ event, index }))
    .sort((a, b) => a.event.atMs - b.event.atMs || a.index - b.index);
  return ordered.map(({ event }, index) => ({ ...event, n: index + 1 }));
}

/** What playing the traffic needs from the run. */
export interface TrafficContext {
  model: EmulatorModel;
  clock: SimulatedClock;
  tenant: string;
  /**
   * The requester writes in the Slack thread: the app adds it (an interactive request).
   * Resolves true once the message has landed on the platform, false if it never did.
   */
  requesterWrites(ticketId: string, body: string): Promise<boolean>;
}

/** Puts every drawn event on the simulated clock. */
export function playTraffic(ctx: TrafficContext, events: readonly TrafficEvent[]): void {
  const { model, clock, tenant } = ctx;
  const alive = (ticketId: string) => model.findTicket(tenant, ticketId)?.status !== 'closed';

  const aiMessage = (ticketId: string, label: string, n: number) => {
    if (!alive(ticketId)) return;
    model.addAiMessage(tenant, ticketId, `${label} #${n}: here is what usually fixes this.`, [
      { title: 'Troubleshooting guide', url: `https://kb.acme.example/articles/${n}` },
    ]);
  };
  const agentMessage = (ticketId: string, label: string, n: number, agent: string) => {
    if (!alive(ticketId)) return;
    model.addAgentReply(tenant, ticketId, { agentEmail: agent, body: `${label} #${n}.` });
  };
  // Status moves between the two states a conversation lives in; nothing here closes a ticket.
  const statusChange = (ticketId: string) => {
    const ticket = model.findTicket(tenant, ticketId);
    if (!ticket || ticket.status === 'closed') return;
    const status = ticket.status === 'in_progress' ? 'waiting_on_requester' : 'in_progress';
    model.updateTicket(tenant, ticketId, { status });
  };

  const play = (event: TrafficEvent) => {
    const { ticketId, n } = event;
    switch (event.kind) {
      case 'requester': {
        const { answer } = event;
        void ctx.requesterWrites(ticketId, `Requester follow-up #${n}.`).then((landed) => {
          if (!landed) return;
          clock.schedule(answer.delayMs, () => {
            if (answer.by === 'ai') {
              aiMessage(ticketId, 'AI answer', n);
              return;
            }
            agentMessage(ticketId, 'Agent answer', n, answer.agent);
            if (answer.withStatus) statusChange(ticketId);
          });
        });
        return;
      }
      case 'ai-note':
        aiMessage(ticketId, 'AI note', n);
        return;
      case 'agent-note':
        agentMessage(ticketId, 'Agent note', n, event.agent);
        return;
      case 'status':
        statusChange(ticketId);
        return;
    }
  };
  for (const event of events) {
    clock.schedule(event.atMs - clock.now(), () => play(event));
  }
}
