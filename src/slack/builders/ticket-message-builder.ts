/**
 * What the mirror posts: a ticket message in its thread (the author's name and kind, the AI
 * agent's sources and its "Talk to a person" button), a one-line change, and the requester's
 * direct message when the ticket is resolved or closed. Everything from the platform is
 * escaped here.
 */
import type { ContextBlock, KnownBlock } from '@slack/types';
import type { Activity, ChangeActivityType, Message } from '../../contract/schemas.ts';
import { ACTIONS } from '../ids.ts';
import { LIMITS, link, md, plain, safeMrkdwn, splitText, truncate } from './mrkdwn.ts';
import type { SlackMessage } from './ticket-card-builder.ts';
import { priorityLabel, statusLabel } from './ticket-labels.ts';

// A long message is split over sections rather than cut; beyond this many (with the header,
// sources and button, inside a post's 50 blocks and Slack's 40,000-character text) it is cut.
const MAX_BODY_SECTIONS = 12;
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

/**
 * The body as sections of safe mrkdwn, split at line ends where it can be. Past what one post
 * may carry, the rest is not shown: a last line says so, how much, and where the whole is.
 */
function bodySections(body: string, wholeAt: string | undefined): KnownBlock[] {
  const text = body.trim() || '(no text)';
  const pieces = splitText(text, LIMITS.sectionText, { escaped: true });
  const shown = pieces.slice(0, MAX_BODY_SECTIONS);
  const blocks: KnownBlock[] = shown.map((piece) => ({
    type: 'section',
    text: md(safeMrkdwn(piece, LIMITS.sectionText)),
  }));
  if (pieces.length > shown.length) {
    const left = Array.from(pieces.slice(shown.length).join('')).length;
    const where = wholeAt
      ? link(wholeAt, 'Read the whole message on the service desk')
      : 'Read the whole message on the ticket in the service desk';
    blocks.push({
      type: 'context',
      elements: [
        md(
          `:scissors: This message is longer than a Slack post can hold; ${left.toLocaleString('en-US')} more characters are not shown here. ${where}.`,
        ),
      ],
    });
  }
  return blocks;
}

/** A ticket message as posted in its thread; `wholeAt` is the ticket's page on the platform. */
export function buildTicketMessagePost(
  ticketId: string,
  message: Message,
  wholeAt?: string,
): SlackMessage {
  const who = author(message);
  const isAi = message.author.type === 'ai_agent';
  const blocks: KnownBlock[] = [
    {
      type: 'context',
      elements: [md(`${who.emoji} *${safeMrkdwn(who.name, 200)}* · ${safeMrkdwn(who.kind, 50)}`)],
    },
    ...bodySections(message.body, wholeAt),
  ];
  if (isAi) {
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
  }
  const label = isAi ? `${who.name} (AI)` : who.name;
  const text = safeMrkdwn(`${label}: ${message.body}`, LIMITS.messageText);
  return { text, blocks };
}

/** People's names by lower-case email, for the people a change line would name by email. */
export type PeopleNames = Readonly<Record<string, string>>;

// Without a name the whole email, not its local part: `jdoe2` or `it-ops` is a guess that can
// mislead, and the email names exactly one person whom a reader can reach.
function personName(email: string, names: PeopleNames): string {
  return names[email.toLowerCase()]?.trim() || email;
}

function actorSuffix(actor: string | null | undefined, names: PeopleNames): string {
  // `api` is the app's own key (the platform's PATCH names no author), `system` its rules.
  if (!actor || actor === 'api' || actor === 'system') return '';
  if (actor === 'ai_agent') return ' by the AI agent';
  return ` by ${safeMrkdwn(personName(actor, names), 200)}`;
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
        ? `:busts_in_silhouette: *${id}* is with the *${safeMrkdwn(change.to, 200)}* team`
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

/** A status, priority or assignee change as one line, naming by `names` whom it has by email. */
export function buildTicketChangeLine(
  ticketId: string,
  change: Activity,
  names: PeopleNames = {},
): SlackMessage {
  const id = safeMrkdwn(ticketId, 40);
  const lineOf =
    CHANGE_LINES[change.type as ChangeActivityType] ??
    ((_id: string, entry: Activity) =>
      `:information_source: *${_id}* ${safeMrkdwn(entry.type, 60)}`);
  const line = `${lineOf(id, change, names)}${actorSuffix(change.actor, names)}`;
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
  const text = `:white_check_mark: Your ticket ${named} was resolved. Not fixed? Reopen it and the service desk will look again.`;
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
