/**
 * A minimal stand-in for the platform's dashboard: the page a ticket's `url` points at. Every
 * piece of ticket text is escaped, since titles and messages come from anyone.
 */
import type { Message, Ticket } from '../../src/contract/schemas.ts';

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** The HTML page of one ticket with its public conversation and internal notes marked. */
export function ticketPage(ticket: Ticket, messages: readonly Message[]): string {
  const e = (value: unknown) =>
    escapeHtml(value === null || value === undefined ? '—' : String(value));
  const rows = (
    [
      ['Status', ticket.status],
      ['Priority', ticket.priority],
      ['Desk', ticket.desk_id],
      ['Requester', ticket.requester_email],
      ['Assignee', ticket.assignee_email],
      ['Team', ticket.team],
      ['Created', ticket.created_at],
      ['Updated', ticket.updated_at],
    ] as const
  )
    .map(([label, value]) => `<tr><th>${label}</th><td>${e(value)}</td></tr>`)
    .join('');
  const conversation = messages
    .map((message) => {
      const note = message.internal ? ' <em>(internal note)</em>' : '';
      const sources = message.sources
        .map((source) => `<li><a href="${e(source.url)}">${e(source.title)}</a></li>`)
        .join('');
      return `<li><strong>${e(message.author.name ?? message.author.type)}</strong> (${e(message.author.type)})${note} <small>${e(message.created_at)}</small><p>${e(message.body)}</p>${sources ? `<ul>${sources}</ul>` : ''}</li>`;
    })
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${e(ticket.id)}: ${e(ticket.title)}</title></head>
<body><h1>${e(ticket.id)}: ${e(ticket.title)}</h1>
<p>${e(ticket.description)}</p>
<table>${rows}</table>
<h2>Conversation</h2><ol>${conversation}</ol>
<p><small>Service-desk emulator dashboard</small></p></body></html>
`;
}
