/**
 * What the mirror posts: a ticket message in its thread (the author's name and kind, the AI
 * agent's sources and its "Talk to a person" button; a long one in numbered parts), a one-line
 * change, and the requester's
 * direct message when the ticket is resolved or closed. Everything from the platform is
 * escaped here.
 */
import type { ContextBlock, KnownBlock } from '@slack/types';
import type { Activity, ChangeActivityType, Message } from '../../contract/schemas.ts';
import { ACTIONS } from '../ids.ts';
import {
  blockTextLength,
  escapeMrkdwn,
  LIMITS,
  link,
  md,
  plain,
  safeMrkdwn,
  splitText,
  truncate,
} from './mrkdwn.ts';
import type { SlackMessage } from './ticket-card-builder.ts';
import { priorityLabel, statusLabel } from './ticket-labels.ts';

// A long message goes out as numbered parts of at most `LIMITS.messageBlockText` each; past
// this many parts (over 100,000 characters, more than Slack's 40,000-character message) the
// rest is not shown, and the last part says so, how much, and where the whole is.
const MAX_PARTS = 10;
const MAX_SOURCES = 10;

const AUTHOR_KINDS: Record<string, { emoji: string; kind: string; fallback: string }> = {
  agent: { emoji: ':technologist:', kind: 'Service desk', fallback: 'An agent' },
  ai_agent: { emoji: ':robot_face:', kind: 'AI', fallback: 'AI agent' },
  requester: { emoji: ':bust_in_silhouette:', kind: 'Requester', fallback: 'The requester' },
  system: { emoji: ':gear:', kind: 'System', fallback: 'System' },
};

function author(message: Message): { emoji: string; name: string; kind: string } {
  const known = AUTHOR_KINDS[message.author.type] ?? {
    emoji: ':speech_balloon:',
    kind: message.author.type.replace(/_/g, ' '),
    fallback: 'Someone',
  };
  const name = message.author.name?.trim() || message.author.email?.trim() || known.fallback;
  return { emoji: known.emoji, name, kind: known.kind };
}

/** The AI agent's sources (whole links only) and its "Talk to a person" button. */
function aiBlocks(ticketId: string, message: Message): KnownBlock[] {
  const blocks: KnownBlock[] = [];
  // Whole links only: a link cut in half would show as raw markup.
  let sources = 'Sources:';
  let listed = 0;
  for (const source of message.sources ?? []) {
    if (listed >= MAX_SOURCES || !/^https?:\/\//.test(source.url)) continue;
    const item = `${listed === 0 ? ' ' : ' · '}${link(source.url, truncate(source.title || source.url, 200))}`;
    if (sources.length + item.length > LIMITS.contextText) break;
    sources += item;
    listed += 1;
  }
  if (listed > 0) blocks.push({ type: 'context', elements: [md(sources)] });
  blocks.push({
    type: 'actions',
    elements: [
      {
        type: 'button',
        action_id: ACTIONS.talkToPerson,
        text: plain('Talk to a person', LIMITS.buttonText),
        value: ticketId.slice(0, 100),
      },
    ],
  });
  return blocks;
}

/**
 * A posted message's blocks without its "Talk to a person" button (an AI answer's, once a
 * person was asked for), an actions block left empty dropped with it; undefined when it has none.
 */
export function withoutPersonOffer(blocks: readonly unknown[]): KnownBlock[] | undefined {
  let offered = false;
  const kept: KnownBlock[] = [];
  for (const block of blocks as KnownBlock[]) {
    if (block.type !== 'actions') {
      kept.push(block);
      continue;
    }
    const elements = block.elements.filter(
      (element) => !('action_id' in element && element.action_id === ACTIONS.talkToPerson),
    );
    if (elements.length === block.elements.length) {
      kept.push(block);
      continue;
    }
    offered = true;
    if (elements.length > 0) kept.push({ ...block, elements });
  }
  return offered ? kept : undefined;
}

/**
 * Groups the body's sections into parts in order, each within `budget` of block text and the
 * last, which also carries the tail, within `lastBudget`.
 */
function groupSections(
  sections: readonly string[],
  budget: number,
  lastBudget: number,
): string[][] {
  const parts: string[][] = [];
  let current: string[] = [];
  let used = 0;
  for (const [i, section] of sections.entries()) {
    const limit = i === sections.length - 1 ? lastBudget : budget;
    if (current.length > 0 && used + section.length > limit) {
      parts.push(current);
      current = [];
      used = 0;
    }
    current.push(section);
    used += section.length;
  }
  if (current.length > 0) parts.push(current);
  return parts;
}

/**
 * A ticket message as posted in its thread, as one post or, when its text is more than one
 * Slack message carries, as numbered parts ("(1/3)") to be posted in order, each within
 * `LIMITS.messageBlockText` of block text; nothing is cut below `MAX_PARTS` parts. `wholeAt`
 * is the ticket's page on the platform. An AI answer offers "Talk to a person" unless
 * `offerPerson` is false (the requester asked for one already). The parts are the same either
 * way, so a count taken without knowing it still holds.
 */
export function buildTicketMessageParts(
  ticketId: string,
  message: Message,
  wholeAt?: string,
  options: { offerPerson?: boolean } = {},
): SlackMessage[] {
  const who = author(message);
  const isAi = message.author.type === 'ai_agent';
  const body = message.body.trim() || '(no text)';
  const pieces = splitText(body, LIMITS.sectionText, { escaped: true });
  const sections = pieces.map(escapeMrkdwn);
  const tail = isAi ? aiBlocks(ticketId, message) : [];
  // Only a triage thread gets internal notes: said on each part, so no agent takes one for a reply.
  const internal = message.internal ? ' · :lock: *Internal note*' : '';
  const headerText = (index: number, count: number) =>
    `${who.emoji} *${safeMrkdwn(who.name, 200)}* · ${safeMrkdwn(who.kind, 50)}${internal}${count > 1 ? ` · (${index}/${count})` : ''}`;
  const where = wholeAt
    ? link(wholeAt, 'Read the whole message on the service desk')
    : 'Read the whole message on the ticket in the service desk';
  const notShown = (left: number) =>
    `:scissors: This message is longer than Slack posts can hold; ${left.toLocaleString('en-US')} more characters are not shown here. ${where}.`;
  const tailLength = blockTextLength(tail);
  const group = (count: number) => {
    const budget = LIMITS.messageBlockText - headerText(count, count).length;
    return groupSections(sections, budget, budget - tailLength);
  };
  // The header's length depends on the count of parts, which depends on the room the header
  // leaves: settle on a count that gives itself back (it only grows, by a digit at most).
  let count = 1;
  let parts = group(count);
  for (let round = 0; round < 5 && Math.min(parts.length, MAX_PARTS) !== count; round++) {
    count = Math.min(parts.length, MAX_PARTS);
    parts = group(count);
  }
  let left = 0;
  if (parts.length > MAX_PARTS) {
    // The last part shown takes what fits beside the sources, the button and the line saying
    // what is not shown; the rest is only counted.
    const room =
      LIMITS.messageBlockText -
      headerText(MAX_PARTS, MAX_PARTS).length -
      tailLength -
      notShown(body.length).length;
    const rest = parts.slice(MAX_PARTS - 1).flat();
    const lastShown: string[] = [];
    let used = 0;
    for (const section of rest) {
      if (used + section.length > room) break;
      lastShown.push(section);
      used += section.length;
    }
    left = pieces.slice(sections.length - rest.length + lastShown.length).join('').length;
    parts = [...parts.slice(0, MAX_PARTS - 1), lastShown];
  }
  const label = `${isAi ? `${who.name} (AI)` : who.name}${message.internal ? ' (internal note)' : ''}`;
  let fallbackFrom = 0;
  return parts.map((partSections, i) => {
    const isLast = i === parts.length - 1;
    const numbered = parts.length > 1 ? ` (${i + 1}/${parts.length})` : '';
    const raw = pieces.slice(fallbackFrom, fallbackFrom + partSections.length).join('');
    fallbackFrom += partSections.length;
    const blocks: KnownBlock[] = [
      { type: 'context', elements: [md(headerText(i + 1, parts.length))] },
      ...partSections.map((text): KnownBlock => ({ type: 'section', text: md(text) })),
    ];
    if (isLast && left > 0) blocks.push({ type: 'context', elements: [md(notShown(left))] });
    if (isLast) {
      const offered =
        options.offerPerson === false ? tail.filter((b) => b.type !== 'actions') : tail;
      blocks.push(...offered);
    }
    // The fallback (notifications, screen readers) is cut with an ellipsis: the blocks hold
    // the whole part.
    return { text: safeMrkdwn(`${label}${numbered}: ${raw}`, LIMITS.messageText), blocks };
  });
}

/** People's names by lower-case email, for the people a change line would name by email. */
export type PeopleNames = Readonly<Record<string, string>>;

// Without a name the whole email, not its local part: `jdoe2` or `it-ops` is a guess that can
// mislead, and the email names exactly one person whom a reader can reach.
function personName(email: string, names: PeopleNames): string {
  return names[email.toLowerCase()]?.trim() || email;
}

function actorSuffix(
  actor: string | null | undefined,
  names: PeopleNames,
  fromSlack: boolean,
): string {
  // `api` is the app's own key (a PATCH that names no actor), `system` the platform's rules.
  if (!actor || actor === 'api' || actor === 'system') return '';
  if (actor === 'ai_agent') return ' by the AI agent';
  return ` by ${safeMrkdwn(personName(actor, names), 200)}${fromSlack ? ', from Slack' : ''}`;
}

function value(raw: string | null | undefined, label: (v: string) => string): string {
  return raw ? safeMrkdwn(label(raw), 200) : '_none_';
}

/** How each kind of change reads in a thread: the one table the mirror's change types are. */
const CHANGE_LINES = {
  status_changed: (id, change) =>
    `:arrows_counterclockwise: *${id}* status: ${value(change.from, statusLabel)} → *${value(change.to, statusLabel)}*`,
  priority_changed: (id, change) =>
    `:triangular_flag_on_post: *${id}* priority: ${value(change.from, priorityLabel)} → *${value(change.to, priorityLabel)}*`,
  assigned: (id, change, names) => {
    // The platform records a team change as an assignment of the field `team`.
    if ((change as { field?: unknown }).field === 'team') {
      return change.to
        ? `:busts_in_silhouette: *${id}* is with *${safeMrkdwn(change.to, 200)}*`
        : `:busts_in_silhouette: *${id}* has no team any more`;
    }
    return change.to
      ? `:bust_in_silhouette: *${id}* is assigned to *${safeMrkdwn(personName(change.to, names), 200)}*`
      : `:bust_in_silhouette: *${id}* is no longer assigned`;
  },
} satisfies Record<
  ChangeActivityType,
  (id: string, change: Activity, names: PeopleNames) => string
>;

/**
 * A status, priority or assignee change as one line, naming by `names` whom it has by email;
 * `fromSlack` says the person made it in Slack ("by Sam Rivera, from Slack").
 */
export function buildTicketChangeLine(
  ticketId: string,
  change: Activity,
  names: PeopleNames = {},
  options: { fromSlack?: boolean } = {},
): SlackMessage {
  const id = safeMrkdwn(ticketId, 40);
  const lineOf =
    CHANGE_LINES[change.type as ChangeActivityType] ??
    ((_id: string, entry: Activity) =>
      `:information_source: *${_id}* ${safeMrkdwn(entry.type, 60)}`);
  const line = `${lineOf(id, change, names)}${actorSuffix(change.actor, names, options.fromSlack === true)}`;
  const block: ContextBlock = {
    type: 'context',
    elements: [md(truncate(line, LIMITS.contextText))],
  };
  return { text: truncate(line, LIMITS.messageText), blocks: [block] };
}

/** The requester's direct message when their ticket is resolved (with Reopen) or closed. */
export function buildRequesterNotice(
  ticketId: string,
  status: 'resolved' | 'closed',
  title: string | undefined,
): SlackMessage {
  const id = safeMrkdwn(ticketId, 40);
  const named = title ? `*${id}* · ${safeMrkdwn(title, 300)}` : `*${id}*`;
  if (status === 'closed') {
    const text = `:lock: Your ticket ${named} is closed. If you still need help, open a new ticket.`;
    return { text, blocks: [{ type: 'section', text: md(text) }] };
  }
  const text = `:white_check_mark: Your ticket ${named} was resolved. Not fixed? Reopen it, or reply here or in its thread, and the service desk will look again.`;
  return {
    text,
    blocks: [
      { type: 'section', text: md(text) },
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            action_id: ACTIONS.reopenTicket,
            text: plain('Reopen', LIMITS.buttonText),
            value: ticketId.slice(0, 100),
          },
        ],
      },
    ],
  };
}
