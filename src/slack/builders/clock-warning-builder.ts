/**
 * What agents read when a ticket's service-level clock reaches its warning point or its due
 * time: one line in the triage thread ("⚠️ First response due in 3 minutes: IT-12 is
 * unassigned", "🔴 First response breached: IT-12 is with @sam"), and for a breach one message
 * at the top of the triage channel naming the ticket (a link to its card), who has it, and the
 * desk's on-call group. Triage channels only: never shown to a requester.
 */
import type { ClockKind } from '../../contract/service-levels.ts';
import { LIMITS, md, safeMrkdwn, truncate } from './mrkdwn.ts';
import { clockName, relativeDate } from './service-clock-builder.ts';
import type { SlackMessage } from './ticket-card-builder.ts';

/** The clock, as the builders need it. */
export interface WarnedClock {
  kind: ClockKind;
  level: 'warning' | 'breach';
  dueAtMs: number;
}

/** How the ticket is named in a breach notice. */
export interface BreachTicket {
  id: string;
  title: string;
  /** The link to its triage card, when Slack gave one. */
  cardLink?: string | undefined;
}

/**
 * Who has the ticket, as mrkdwn already made safe (`personText`, `teamText`), or undefined
 * for no one.
 */
export type HolderText = string | undefined;

/** The line in the triage thread. */
export function buildClockWarningLine(
  ticketId: string,
  clock: WarnedClock,
  holder: HolderText,
): SlackMessage {
  const id = `*${safeMrkdwn(ticketId, 40)}*`;
  const name = clockName(clock.kind);
  const who = holder ? `${id} is with ${holder}` : `${id} is unassigned`;
  const line =
    clock.level === 'warning'
      ? `:warning: ${name} due ${relativeDate(clock.dueAtMs)}: ${who}`
      : `:red_circle: ${name} breached: ${who} (due ${relativeDate(clock.dueAtMs)})`;
  return {
    text: truncate(line, LIMITS.messageText),
    blocks: [{ type: 'context', elements: [md(truncate(line, LIMITS.contextText))] }],
  };
}

/**
 * The breach said at the top of the triage channel, mentioning the on-call group (a Slack
 * user group id) when the desk has one.
 */
export function buildBreachNotice(
  ticket: BreachTicket,
  clock: Pick<WarnedClock, 'kind' | 'dueAtMs'>,
  holder: HolderText,
  oncallGroup: string | undefined,
): SlackMessage {
  const id = safeMrkdwn(ticket.id, 40);
  const title = safeMrkdwn(ticket.title, 150);
  // A link's text may not hold `|` or `>`: safeMrkdwn escapes `>`, and `|` is dropped here.
  const named = ticket.cardLink
    ? `<${ticket.cardLink}|${id} · ${title.replaceAll('|', '/')}>`
    : `*${id}* · ${title}`;
  const group = oncallGroup && /^S[A-Z0-9]+$/.test(oncallGroup) ? ` <!subteam^${oncallGroup}>` : '';
  const who = holder ? `assigned to ${holder}` : 'unassigned';
  const text = `:red_circle: ${clockName(clock.kind)} breached on ${named} (due ${relativeDate(clock.dueAtMs)}): ${who}${group}`;
  return {
    text: truncate(text, LIMITS.messageText),
    blocks: [{ type: 'section', text: md(truncate(text, LIMITS.sectionText)) }],
  };
}
