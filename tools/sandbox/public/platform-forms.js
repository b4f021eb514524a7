// @ts-check
/**
 * The platform's forms: choosing the ticket shown, a human agent's reply or status change, and
 * the switch for the platform's webhooks to the app, and the button that sends today's digest.
 */
import { actOrTell, refresh } from './connection.js';
import { byId } from './dom.js';
import { toast } from './notices.js';
import { state } from './state.js';
/** @import { TicketStatus } from '../../../src/contract/schemas.ts' */

export function setUpPlatform() {
  const ticketSelect = byId('ticket-select', HTMLSelectElement);
  const agentSelect = byId('agent-select', HTMLSelectElement);
  const internal = byId('agent-internal', HTMLInputElement);
  ticketSelect.addEventListener('change', () => {
    state.ticket = ticketSelect.value;
    void refresh();
  });
  byId('agent-reply').addEventListener('submit', async (event) => {
    event.preventDefault();
    const body = byId('agent-reply-body', HTMLTextAreaElement);
    const ticket = state.snapshot?.platform.selected?.ticket;
    if (!ticket || !body.value.trim()) return;
    const result = await actOrTell({
      type: 'agentReply',
      ticketId: ticket.id,
      agentEmail: agentSelect.value,
      body: body.value,
      internal: internal.checked,
    });
    if (result.ok) {
      body.value = '';
      internal.checked = false;
    }
  });
  const webhooks = byId('webhooks-toggle', HTMLInputElement);
  webhooks.addEventListener('change', () => {
    void actOrTell({ type: 'setWebhooks', enabled: webhooks.checked });
  });
  // The morning summary now: what became of it in each triage channel is said in a notice.
  byId('send-digest').addEventListener('click', async () => {
    const result = await actOrTell({ type: 'sendDigest' });
    if (result.ok && result.outcome) toast(`Today’s digest: ${result.outcome}`);
  });
  byId('agent-status').addEventListener('submit', (event) => {
    event.preventDefault();
    const ticket = state.snapshot?.platform.selected?.ticket;
    if (!ticket) return;
    void actOrTell({
      type: 'setStatus',
      ticketId: ticket.id,
      agentEmail: agentSelect.value,
      // The select's options are the platform's statuses (the snapshot's `statuses`).
      status: /** @type {TicketStatus} */ (byId('status-select', HTMLSelectElement).value),
    });
  });
}
