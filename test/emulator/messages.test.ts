import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Activity, Envelope, Message, Ticket } from '../../src/contract/schemas.ts';
import type { RunningEmulator } from '../../tools/emulator/index.ts';
import { call, emulator } from './support.ts';

const SAM = 'sam.rivera@acme.example';
const ANA = 'ana.lima@acme.example';

describe('emulator ticket messages', () => {
  let emu: RunningEmulator;
  let ticket: Ticket;
  beforeEach(async () => {
    emu = await emulator();
    ticket = emu.model.createTicket('acme', {
      title: 'Dock does not charge',
      requester_email: ANA,
    });
  });
  afterEach(async () => {
    await emu.close();
  });

  async function post(body: Record<string, unknown>): Promise<Message> {
    const response = await call<Message>(emu, 'addMessage', { ticketId: ticket.id, body });
    expect(response.status).toBe(201);
    return response.body;
  }

  it("makes an agent's email an agent author named after the employee", async () => {
    const message = await post({ body: 'On it', author_email: SAM });
    expect(message.author).toEqual({ type: 'agent', name: 'Sam Rivera', email: SAM });
  });

  it("makes an employee's email a requester author named after the employee", async () => {
    const message = await post({ body: 'Thanks', author_email: ANA });
    expect(message.author).toEqual({ type: 'requester', name: 'Ana Lima', email: ANA });
  });

  it('names an unknown email after the email itself', async () => {
    const message = await post({ body: 'Hi', author_email: 'guest@partner.example' });
    expect(message.author).toEqual({
      type: 'requester',
      name: 'guest@partner.example',
      email: 'guest@partner.example',
    });
  });

  it('makes a message without author_email a system message', async () => {
    const message = await post({ body: 'Imported from e-mail' });
    expect(message.author.type).toBe('system');
  });

  it('defaults internal to false and sources to empty', async () => {
    const message = await post({ body: 'Hello' });
    expect(message).toMatchObject({ internal: false, sources: [], ticket_id: ticket.id });
  });

  it('lists messages oldest first', async () => {
    await post({ body: 'first' });
    await post({ body: 'second' });
    const list = await call<Envelope<Message>>(emu, 'listMessages', { ticketId: ticket.id });
    expect(list.body.items.map((message) => message.body)).toEqual(['first', 'second']);
  });

  it('logs every message as message_added by its author', async () => {
    const message = await post({ body: 'Hello', author_email: SAM });
    const activity = await call<Envelope<Activity>>(emu, 'listActivity', { ticketId: ticket.id });
    expect(activity.body.items.at(-1)).toMatchObject({
      type: 'message_added',
      to: message.id,
      actor: SAM,
    });
  });

  it('reopens a resolved ticket when the requester writes', async () => {
    emu.model.updateTicket('acme', ticket.id, { status: 'resolved' });
    await post({ body: 'Still broken', author_email: ANA });
    expect(emu.model.getTicket('acme', ticket.id).status).toBe('open');
    expect(emu.model.listActivity('acme', ticket.id).at(-1)).toMatchObject({
      type: 'status_changed',
      from: 'resolved',
      to: 'open',
    });
  });

  it('leaves a resolved ticket resolved when an agent writes', async () => {
    emu.model.updateTicket('acme', ticket.id, { status: 'resolved' });
    await post({ body: 'Closing the loop', author_email: SAM });
    expect(emu.model.getTicket('acme', ticket.id).status).toBe('resolved');
  });

  it('leaves a resolved ticket resolved for an internal note', async () => {
    emu.model.updateTicket('acme', ticket.id, { status: 'resolved' });
    await post({ body: 'note', author_email: ANA, internal: true });
    expect(emu.model.getTicket('acme', ticket.id).status).toBe('resolved');
  });

  it('answers a ticket waiting on the requester when the requester writes', async () => {
    emu.model.updateTicket('acme', ticket.id, { status: 'waiting_on_requester' });
    await post({ body: 'Here is the log', author_email: ANA });
    expect(emu.model.getTicket('acme', ticket.id).status).toBe('open');
  });

  it('shows a reply added outside HTTP as a human agent', async () => {
    emu.model.addAgentReply('acme', ticket.id, { agentEmail: SAM, body: 'From the dashboard' });
    const list = await call<Envelope<Message>>(emu, 'listMessages', { ticketId: ticket.id });
    expect(list.body.items.at(-1)).toMatchObject({
      body: 'From the dashboard',
      author: { type: 'agent', email: SAM },
    });
  });

  it('requires a body with at least one character', async () => {
    const response = await call(emu, 'addMessage', { ticketId: ticket.id, body: { body: '' } });
    expect(response.status).toBe(422);
  });
});
