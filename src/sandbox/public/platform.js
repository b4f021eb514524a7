/**
 * The platform's side of the page: the tickets of the emulated tenant, one of them opened with
 * its fields, conversation (internal notes marked) and activity, and forms for a human agent
 * to reply or change the status as they would in the platform's dashboard. Ticket text is
 * shown as plain text: the platform has no markup.
 */
import { h, replaceChildren } from './dom.js';

const AUTHOR_LABELS = {
  requester: 'Requester',
  agent: 'Agent',
  ai_agent: 'AI agent',
  system: 'System',
};

const humanise = (value) =>
  String(value ?? '—')
    .replace(/_/g, ' ')
    .replace(/^./, (c) => c.toUpperCase());

function time(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return h('span', {}, String(iso));
  return h(
    'time',
    { datetime: date.toISOString(), title: date.toISOString() },
    date.toLocaleString('en-GB', {
      day: 'numeric',
      month: 'short',
      hour: '2-digit',
      minute: '2-digit',
    }),
  );
}

function fields(ticket) {
  const rows = [
    ['Status', humanise(ticket.status)],
    ['Priority', humanise(ticket.priority)],
    ['Requester', ticket.requester_email ?? '—'],
    ['Assignee', ticket.assignee_email ?? (ticket.team ? `Team ${ticket.team}` : '—')],
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

function activity(entry) {
  const from = entry.from ?? null;
  const to = entry.to ?? null;
  // A message's id says nothing to a reader; the conversation above shows the message.
  const change =
    entry.type === 'message_added' || (from === null && to === null)
      ? ''
      : from === null
        ? `: ${humanise(to)}`
        : `: ${humanise(from)} → ${to === null ? 'none' : humanise(to)}`;
  return h(
    'li',
    {},
    time(entry.created_at),
    ' ',
    h('strong', {}, humanise(entry.type)),
    change,
    entry.actor ? h('span', { className: 'actor' }, ` by ${entry.actor}`) : '',
  );
}

let lastDetail = '';
let lastOptions = '';
let lastAgents = '';

/** Renders the platform panel from the snapshot's `platform` part. */
export function renderPlatform(platform, elements) {
  const { select, detail, replyForm, statusForm, agentSelect, statusSelect, tenant } = elements;
  tenant.textContent = platform.tenant;
  const selected = platform.selected;
  const optionsKey = JSON.stringify([platform.tickets, selected?.ticket.id, platform.pinned]);
  if (optionsKey !== lastOptions) {
    lastOptions = optionsKey;
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
  if (agentsKey !== lastAgents) {
    lastAgents = agentsKey;
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
  const detailKey = JSON.stringify(selected);
  if (detailKey === lastDetail) return;
  lastDetail = detailKey;
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
    fields(ticket),
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
      selected.activity.slice(-12).map(activity),
    ),
  ]);
}
