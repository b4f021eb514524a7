/**
 * A ticket's service-level clocks as agents read them on a card: "First response due in 12
 * minutes", "Resolution due tomorrow at 14:00", "First response breached 5 minutes ago",
 * "Paused: waiting on requester". Slack renders every time in the reader's own time zone, and
 * a relative one as of when it is read. For agents only: a requester's card never calls it.
 */
import type { ContextBlock } from '@slack/types';
import type { Ticket } from '../../contract/schemas.ts';
import {
  type ClockInputs,
  type ClockKind,
  type ServiceClock,
  ticketClocks,
} from '../../contract/service-levels.ts';
import { md } from './mrkdwn.ts';

const CLOCK_NAMES: Readonly<Record<ClockKind, string>> = {
  first_response: 'First response',
  resolution: 'Resolution',
};

const STATE_ICONS = {
  running: ':clock3:',
  warning: ':warning:',
  breached: ':red_circle:',
  paused: ':double_vertical_bar:',
  met: ':white_check_mark:',
} as const;

// Within this of now, a time reads best as "in 12 minutes" or "5 minutes ago"; beyond it, as a
// day and a time ("today at 13:00"): Slack's {ago} shows a bare date past the hour.
const RELATIVE_WITHIN_MS = 3_600_000;

/** The name of a clock, such as "First response". */
export function clockName(kind: ClockKind): string {
  return CLOCK_NAMES[kind];
}

/**
 * One line of mrkdwn per clock; a met resolution (the ticket is done) says nothing, and the
 * clocks paused together read as one "Paused: waiting on requester" (they pause for one reason).
 */
export function clockLines(clocks: readonly ServiceClock[], nowMs: number): string[] {
  const lines: string[] = [];
  let pausedSaid = false;
  for (const clock of clocks) {
    if (clock.state === 'paused') {
      if (!pausedSaid) lines.push(`${STATE_ICONS.paused} Paused: waiting on requester`);
      pausedSaid = true;
      continue;
    }
    const line = clockLine(clock, nowMs);
    if (line) lines.push(line);
  }
  return lines;
}

/**
 * The ticket's clocks as a card's context block (`blockId` names it), computed as of
 * `inputs.nowMs`; undefined when the ticket has no clock to show. Only for a card that agents
 * alone see: the caller decides that, never this builder.
 */
export function clockBlock(
  ticket: Ticket,
  inputs: ClockInputs,
  blockId: string,
): ContextBlock | undefined {
  const lines = clockLines(ticketClocks(ticket, inputs), inputs.nowMs);
  if (lines.length === 0) return undefined;
  return {
    type: 'context',
    block_id: blockId,
    // At most three short lines: far under a context text's 3,000 characters.
    elements: [md(lines.join('\n'))],
  };
}

/** A clock as one line of mrkdwn, with its icon. */
export function clockLine(clock: ServiceClock, nowMs: number): string | undefined {
  const name = CLOCK_NAMES[clock.kind];
  const icon = STATE_ICONS[clock.state];
  switch (clock.state) {
    case 'met':
      return clock.kind === 'first_response' ? `${icon} ${name} met` : undefined;
    case 'paused':
      return `${icon} ${name} paused: waiting on requester`;
    case 'breached':
      return `${icon} ${name} breached ${nearOrDated(clock.dueAtMs, nowMs)}`;
    default:
      return `${icon} ${name} due ${nearOrDated(clock.dueAtMs, nowMs)}`;
  }
}

/** "in 12 minutes" (Slack counts it as the reader reads), with the UTC time as a fallback. */
export function relativeDate(ms: number): string {
  return `<!date^${Math.floor(ms / 1000)}^{ago}|${utcFallback(ms)}>`;
}

/** A time: relative when it is near, else "tomorrow at 14:00" in the reader's zone. */
function nearOrDated(ms: number, nowMs: number): string {
  if (Math.abs(ms - nowMs) <= RELATIVE_WITHIN_MS) return relativeDate(ms);
  return `<!date^${Math.floor(ms / 1000)}^{date_short_pretty} at {time}|${utcFallback(ms)}>`;
}

function utcFallback(ms: number): string {
  return `${new Date(ms).toISOString().replace('T', ' ').slice(0, 16)} UTC`;
}
