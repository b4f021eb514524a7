/**
 * The benchmark's traffic: who writes what, and when, on the linked tickets.
 *
 * A hot ticket is a live conversation. Its requester writes in the Slack thread now and then
 * (Poisson, `requesterPerHour`); each message goes through the app (an interactive add) and is
 * answered: by the platform's AI agent `aiDelayMs` after it lands, in `aiShare` of the cases,
 * otherwise by a human agent after a human response time (exponential, mean
 * `humanReplyMeanMs`), whose answer comes with a status change half the time. On top of that,
 * agents and the AI agent also write on hot tickets unprompted, at random
 * (`hotUnpromptedPerHour`). A cold ticket only rarely hears from an agent
 * (`coldMessagesPerHour`) or changes status (`coldChangesPerHour`).
 *
 * The emulator's own AI agent answers a ticket once and then stays silent after handing it
 * off, which would leave a live conversation without its AI; so the benchmark plays the AI
 * agent itself, with the same delay, and stops the emulator's.
 */
import type { EmulatorModel } from '../../src/emulator/index.ts';
import type { Random } from '../../src/emulator/random.ts';
import type { SimulatedClock } from './simulated-clock.ts';

/** The knobs of the traffic; the defaults are the model the README states. */
export interface TrafficModel {
  requesterPerHour: number;
  aiShare: number;
  aiDelayMs: number;
  humanReplyMeanMs: number;
  hotUnpromptedPerHour: number;
  coldMessagesPerHour: number;
  coldChangesPerHour: number;
}

/** The model the figures in the README come from. */
export const DEFAULT_TRAFFIC: TrafficModel = {
  requesterPerHour: 3,
  aiShare: 0.75,
  aiDelayMs: 1_500,
  humanReplyMeanMs: 90_000,
  hotUnpromptedPerHour: 0.5,
  coldMessagesPerHour: 0.05,
  coldChangesPerHour: 0.02,
};

/** The human agents of the benchmark's tenant. */
export const AGENTS = [
  'sam.rivera@acme.example',
  'priya.shah@acme.example',
  'tom.becker@acme.example',
  'lena.kowalski@acme.example',
];

/** What the traffic needs from the run. */
export interface TrafficContext {
  model: EmulatorModel;
  clock: SimulatedClock;
  random: Random;
  tenant: string;
  hot: ReadonlySet<string>;
  tickets: readonly string[];
  /** The requester writes in the Slack thread: the app adds it (an interactive request). */
  requesterWrites(ticketId: string, body: string): Promise<void>;
  /** Stops generating at this time. */
  endMs: number;
}

const HOUR_MS = 3_600_000;

function exponential(random: Random, meanMs: number): number {
  return -Math.log(1 - random()) * meanMs;
}

/** Starts every generator of the model; they stop by themselves at `endMs`. */
export function startTraffic(ctx: TrafficContext, traffic: TrafficModel): void {
  const { model, clock, random, tenant } = ctx;
  let counter = 0;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const alive = (ticketId: string) => model.findTicket(tenant, ticketId)?.status !== 'closed';

  const aiMessage = (ticketId: string, label: string) => {
    if (!alive(ticketId)) return;
    counter += 1;
    model.addAiMessage(tenant, ticketId, `${label} #${counter}: here is what usually fixes this.`, [
      { title: 'Troubleshooting guide', url: `https://kb.acme.example/articles/${counter}` },
    ]);
  };
  const agentMessage = (ticketId: string, label: string, changeStatus: boolean) => {
    if (!alive(ticketId)) return;
    counter += 1;
    model.addAgentReply(tenant, ticketId, {
      agentEmail: pick(AGENTS),
      body: `${label} #${counter}.`,
    });
    if (changeStatus) statusChange(ticketId);
  };
  const statusChange = (ticketId: string) => {
    const ticket = model.findTicket(tenant, ticketId);
    if (!ticket || ticket.status === 'closed') return;
    const status = ticket.status === 'in_progress' ? 'waiting_on_requester' : 'in_progress';
    model.updateTicket(tenant, ticketId, { status });
  };

  // A Poisson process: the next event an exponential time after this one.
  const every = (perHour: number, event: () => void) => {
    if (perHour <= 0) return;
    const schedule = () => {
      const delay = exponential(random, HOUR_MS / perHour);
      if (clock.now() + delay >= ctx.endMs) return;
      clock.schedule(delay, () => {
        event();
        schedule();
      });
    };
    schedule();
  };

  // The desk answers each requester message once it has landed on the platform.
  model.onEvent((event) => {
    if (event.type !== 'message_added' || !ctx.hot.has(event.ticketId)) return;
    const { message } = event;
    if (message.author.type !== 'requester' || message.internal) return;
    if (clock.now() >= ctx.endMs) return;
    if (random() < traffic.aiShare) {
      clock.schedule(traffic.aiDelayMs, () => aiMessage(event.ticketId, 'AI answer'));
    } else {
      const delay = exponential(random, traffic.humanReplyMeanMs);
      const withStatus = random() < 0.5;
      clock.schedule(delay, () => agentMessage(event.ticketId, 'Agent answer', withStatus));
    }
  });

  for (const ticketId of ctx.tickets) {
    if (ctx.hot.has(ticketId)) {
      every(traffic.requesterPerHour, () => {
        counter += 1;
        void ctx.requesterWrites(ticketId, `Requester follow-up #${counter}.`);
      });
      every(traffic.hotUnpromptedPerHour, () =>
        random() < 0.5
          ? aiMessage(ticketId, 'AI note')
          : agentMessage(ticketId, 'Agent note', false),
      );
    } else {
      every(traffic.coldMessagesPerHour, () => agentMessage(ticketId, 'Agent note', false));
      every(traffic.coldChangesPerHour, () => statusChange(ticketId));
    }
  }
}
