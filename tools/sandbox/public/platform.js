// @ts-check
/**
 * The platform's side of the page: the tickets of the emulated tenant, one of them opened with
 * its fields, conversation (internal notes marked) and activity, and forms for a human agent
 * to reply or change the status as they would in the platform's dashboard. Ticket text is
 * shown as plain text: the platform has no markup.
 */
import { h, replaceChildren } from './dom.js';
import { dayAndTime } from './time.js';

/** @import { Activity, Message, Ticket } from '../../../src/contract/schemas.ts' */
/** @import { PlatformView } from '../simulator-state.ts' */

/**
 * The platform's directory: lower-case email → name.
 * @typedef {Readonly<Record<string, string>>} Names
 */

/**
 * The panel's elements (index.html).
 * @typedef {object} PlatformElements
 * @property {HTMLSelectElement} select
 * @property {HTMLElement} detail
 * @property {HTMLElement} replyForm
 * @property {HTMLElement} statusForm
 * @property {HTMLSelectElement} agentSelect
 * @property {HTMLSelectElement} statusSelect
 * @property {HTMLElement} tenant
 * @property {HTMLElement} push
 * @property {HTMLInputElement} pushToggle
 * @property {HTMLElement} pushHint
 */

/**
 * What the panel last drew, as keys of its inputs, so a render skips what did not change.
 * @typedef {{ options: string, agents: string, detail: string }} PlatformDrawn
 */

/** @type {Readonly<Record<string, string>>} */
const AUTHOR_LABELS = {
  requester: 'Requester',
  agent: 'Agent',
  ai_agent: 'AI agent',
  system: 'System',
};

// Who the platform records for a change that no person made: its AI agent, its own rules, and
// a write through the API (in the sandbox, always the Slack app's key: PATCH names no author).
/** @type {Readonly<Record<string, string>>} */
const ACTOR_LABELS = {
  ai_agent: 'AI Agent',
  system: 'System',
  api: 'the Slack app (API key)',
};

/**
 * A person by the name the platform's directory gives them; their email when it has none.
 * @param {Names} names
 * @param {string} email
 */
function personName(names, email) {
  return names[String(email).toLowerCase()] ?? email;
}

/**
 * @param {Names} names
 * @param {string | null | undefined} email
 */
function person(names, email) {
  if (!email) return null;
  const name = personName(names, email);
  return name === email ? email : h('span', { title: email }, name);
}

/** @param {unknown} value */
const humanise = (value) =>
  String(value ?? '—')
    .replace(/_/g, ' ')
    .replace(/^./, (c) => c.toUpperCase());

/** @param {string} iso */
function time(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return h('span', {}, String(iso));
  return h('time', { datetime: date.toISOString(), title: date.toISOString() }, dayAndTime(date));
}

/**
 * @param {Ticket} ticket
 * @param {Names} names
 */
function fields(ticket, names) {
  /** @type {[string, import('./dom.js').Child][]} */
  const rows = [
    ['Status', humanise(ticket.status)],
    ['Priority', humanise(ticket.priority)],
    ['Requester', person(names, ticket.requester_email) ?? '—'],
    [
      'Assignee',
      person(names, ticket.assignee_email) ?? (ticket.team ? `Team ${ticket.team}` : '—'),
    ],
    ['Desk', ticket.desk_id ?? '—'],
    ['Channel', ticket.channel ?? '—'],
  ];
  return h(
    'dl',
    { className: 'ticket-fields' },
    rows.map(([label, value]) =>
      h('div', {}, h('dt', {}, label), h('dd', { dataset: { field: label.toLowerCase() } }, value)),
    ),
  );
}

/** @param {Message} entry */
function message(entry) {
  const type = entry.author?.type ?? 'system';
  return h(
    'li',
    { className: `ticket-message author-${type}${entry.internal ? ' internal' : ''}` },
    h(
      'div',
      { className: 'ticket-message-meta' },
      h('strong', {}, entry.author?.name ?? AUTHOR_LABELS[type] ?? type),
      ' ',
      h('span', { className: `badge badge-${type}` }, AUTHOR_LABELS[type] ?? humanise(type)),
      entry.internal ? h('span', { className: 'badge badge-internal' }, 'Internal note') : null,
      ' ',
      time(entry.created_at),
    ),
    h('p', { className: 'ticket-message-body' }, entry.body),
    entry.sources?.length
      ? h(
          'ul',
          { className: 'sources', 'aria-label': 'Sources' },
          entry.sources.map((source) =>
            h(
              'li',
              {},
              /^https?:\/\//.test(source.url)
                ? h(
                    'a',
                    { href: source.url, target: '_blank', rel: 'noopener noreferrer' },
                    source.title,
                  )
                : source.title,
            ),
          ),
        )
      : null,
  );
}

/**
 * @param {Names} names
 * @param {string | null | undefined} value
 */
function actor(names, value) {
  if (!value) return '';
  const who = Object.hasOwn(ACTOR_LABELS, value) ? ACTOR_LABELS[value] : person(names, value);
  return h('span', { className: 'actor' }, ' by ', who);
}

/**
 * @param {Activity} entry
 * @param {Names} names
 */
function activity(entry, names) {
  const from = entry.from ?? null;
  const to = entry.to ?? null;
  // An assignment's values are people (by email), a team's or a status's are words.
  /** @type {(value: string) => string} */
  const shown =
    entry.type === 'assigned' && entry.field !== 'team'
      ? (value) => personName(names, value)
      : humanise;
  // A message's id says nothing to a reader; the conversation above shows the message.
  const change =
    entry.type === 'message_added' || (from === null && to === null)
      ? ''
      : from === null
        ? `: ${shown(/** @type {string} not null: both null is handled above */ (to))}`
        : `: ${shown(from)} → ${to === null ? 'none' : shown(to)}`;
  return h(
    'li',
    {},
    time(entry.created_at),
    ' ',
    h('strong', {}, humanise(entry.type)),
    change,
    actor(names, entry.actor),
  );
}

/**
 * The switch for the platform's webhooks to the app, and what each setting means.
 * @param {boolean | undefined} on
 * @param {PlatformElements} elements
 */
function renderPush(on, { push, pushToggle, pushHint }) {
  push.hidden = on === undefined;
  if (on === undefined) return;
  pushToggle.checked = on;
  pushHint.textContent = on
    ? 'The platform tells the app which ticket changed; threads follow within seconds.'
    : 'Off: the app finds changes by itself (the change feed and its own looks), so threads follow more slowly.';
}

/**
 * Renders the platform panel from the snapshot's `platform` part; `drawn` is what it last drew
 * (the page keeps it, and it is updated here).
 * @param {PlatformView} platform
 * @param {PlatformElements} elements
 * @param {PlatformDrawn} drawn
 */
export function renderPlatform(platform, elements, drawn) {
  const { select, detail, replyForm, statusForm, agentSelect, statusSelect, tenant } = elements;
  tenant.textContent = platform.tenant;
  renderPush(platform.webhooks, elements);
  const selected = platform.selected;
  const optionsKey = JSON.stringify([platform.tickets, selected?.ticket.id, platform.pinned]);
  if (optionsKey !== drawn.options) {
    drawn.options = optionsKey;
    select.replaceChildren(
      h('option', { value: '' }, 'Follow the newest ticket'),
      ...platform.tickets.map((ticket) =>
        h(
          'option',
          { value: ticket.id },
          `${ticket.id} · ${ticket.title} (${humanise(ticket.status)})`,
        ),
      ),
    );
    select.value = platform.pinned && selected ? selected.ticket.id : '';
  }
  const agentsKey = JSON.stringify([platform.agents, platform.statuses]);
  if (agentsKey !== drawn.agents) {
    drawn.agents = agentsKey;
    agentSelect.replaceChildren(
      ...platform.agents.map((agent) =>
        h('option', { value: agent.email }, `${agent.name} (${agent.email})`),
      ),
    );
    statusSelect.replaceChildren(
      ...platform.statuses.map((status) => h('option', { value: status }, humanise(status))),
    );
  }
  replyForm.hidden = !selected;
  statusForm.hidden = !selected;
  const detailKey = JSON.stringify([selected, platform.names]);
  if (detailKey === drawn.detail) return;
  drawn.detail = detailKey;
  if (!selected) {
    replaceChildren(detail, h('p', { className: 'empty' }, 'No tickets yet.'));
    return;
  }
  const { ticket } = selected;
  if (document.activeElement !== statusSelect) statusSelect.value = ticket.status;
  replaceChildren(detail, [
    h(
      'h3',
      { className: 'ticket-title' },
      h('span', { className: 'ticket-id' }, ticket.id),
      ` ${ticket.title}`,
    ),
    ticket.description ? h('p', { className: 'ticket-description' }, ticket.description) : null,
    fields(ticket, platform.names),
    h('h4', {}, `Conversation (${selected.messages.length})`),
    selected.messages.length
      ? h(
          'ol',
          { className: 'ticket-messages', 'aria-label': 'Ticket conversation' },
          selected.messages.map(message),
        )
      : h('p', { className: 'empty' }, 'No messages yet.'),
    h('h4', {}, 'Activity'),
    h(
      'ol',
      { className: 'activity', 'aria-label': 'Ticket activity' },
      selected.activity.slice(-12).map((entry) => activity(entry, platform.names)),
    ),
  ]);
}
