import { afterEach, describe, expect, it } from 'vitest';
import type { Envelope, Message, ServiceRequest, Ticket } from '../../src/contract/schemas.ts';
import type { RunningEmulator } from '../../tools/emulator/index.ts';
import { call, emulator, eventually, ManualScheduler } from './support.ts';

const ANA = 'ana.lima@acme.example';
const SAM = 'sam.rivera@acme.example';

describe('emulator AI agent', () => {
  let emu: RunningEmulator;
  afterEach(async () => {
    await emu.close();
  });

  async function create(body: Record<string, unknown>): Promise<Ticket> {
    return (await call<Ticket>(emu, 'createTicket', { body: { requester_email: ANA, ...body } }))
      .body;
  }

  function aiMessages(id: string): Message[] {
    return emu.model
      .listMessages('acme', id)
      .filter((message) => message.author.type === 'ai_agent');
  }

  // Waits until the ticket carries `count` AI messages and returns them.
  function aiReplies(id: string, count = 1): Promise<Message[]> {
    return eventually(() => {
      const replies = aiMessages(id);
      return replies.length >= count ? replies : undefined;
    });
  }

  it('answers a password reset from the knowledge base and resolves the ticket', async () => {
    emu = await emulator({ aiDelayMs: 20 });
    const ticket = await create({ title: 'I forgot my password' });
    const [reply] = await aiReplies(ticket.id);
    expect(reply?.author).toEqual({ type: 'ai_agent', name: 'AI Agent', email: null });
    expect(reply?.sources).toEqual([
      { title: 'Reset your password', url: 'https://help.acme.example/kb/password-reset' },
    ]);
    expect(emu.model.getTicket('acme', ticket.id).status).toBe('resolved');
  });

  it('resolves a VPN how-to by itself', async () => {
    emu = await emulator({ aiDelayMs: 20 });
    const ticket = await create({ title: 'How do I connect to the VPN from home?' });
    await aiReplies(ticket.id);
    expect(emu.model.getTicket('acme', ticket.id).status).toBe('resolved');
  });

  it('hands a printer problem to the Hardware team with the article it used', async () => {
    emu = await emulator({ aiDelayMs: 20 });
    const ticket = await create({ title: 'Printer shows a paper jam all the time' });
    const [reply] = await aiReplies(ticket.id);
    expect(reply?.body).toContain('Hardware team');
    expect(reply?.sources.map((source) => source.title)).toEqual(['Printer troubleshooting']);
    expect(emu.model.getTicket('acme', ticket.id)).toMatchObject({
      team: 'Hardware',
      status: 'in_progress',
    });
  });

  it('files an unclassified ticket under a desk and raises its priority from its words', async () => {
    emu = await emulator({ aiDelayMs: 20 });
    const ticket = await create({ title: 'Laptop screen cracked, I cannot work' });
    await aiReplies(ticket.id);
    expect(emu.model.getTicket('acme', ticket.id)).toMatchObject({
      desk_id: 'it-hardware',
      priority: 'high',
    });
  });

  it('records its conversation in List requests', async () => {
    emu = await emulator({ aiDelayMs: 20 });
    const ticket = await create({ title: 'Forgot password' });
    await aiReplies(ticket.id);
    const requests = await call<Envelope<ServiceRequest>>(emu, 'listRequests', {
      query: { page_size: '100' },
    });
    expect(requests.body.items.find((request) => request.ticket_id === ticket.id)?.status).toBe(
      'resolved',
    );
  });

  it('hands the ticket off when the requester writes back after an automatic answer', async () => {
    emu = await emulator({ aiDelayMs: 20 });
    const ticket = await create({ title: 'Forgot my password' });
    await aiReplies(ticket.id);
    await call(emu, 'addMessage', {
      ticketId: ticket.id,
      body: { body: 'The reset page says my account is disabled', author_email: ANA },
    });
    const replies = await aiReplies(ticket.id, 2);
    expect(replies[1]?.body).toContain('Identity & Access team');
    expect(emu.model.getTicket('acme', ticket.id).status).toBe('in_progress');
  });

  it('hands over without answering again when the requester asks to talk to a person', async () => {
    emu = await emulator({ aiDelayMs: 20 });
    const ticket = await create({ title: 'Forgot my password' });
    await aiReplies(ticket.id);
    await call(emu, 'addMessage', {
      ticketId: ticket.id,
      body: {
        body: 'Ana Lima would like to talk to a person instead of the AI agent.',
        author_email: ANA,
      },
    });
    const replies = await aiReplies(ticket.id, 2);
    expect(replies[1]?.body).toBe(
      "I've passed this to the Identity & Access team; someone will follow up here.",
    );
    expect(replies[1]?.sources).toEqual([]);
    expect(emu.model.getTicket('acme', ticket.id).status).toBe('in_progress');
  });

  it('hands a new ticket straight to people when its requester asks for a person', async () => {
    emu = await emulator({ aiDelayMs: 20 });
    const ticket = await create({ title: 'Password expired, I want to speak to a human' });
    const [reply] = await aiReplies(ticket.id);
    expect(reply?.body).not.toContain('reset');
    expect(reply?.body).toContain('someone will follow up here');
    expect(emu.model.getTicket('acme', ticket.id).status).toBe('in_progress');
  });

  it('resolves again when the requester only says thanks', async () => {
    emu = await emulator({ aiDelayMs: 20 });
    const ticket = await create({ title: 'Forgot my password' });
    await aiReplies(ticket.id);
    await call(emu, 'addMessage', {
      ticketId: ticket.id,
      body: { body: 'Thanks, that worked!', author_email: ANA },
    });
    await aiReplies(ticket.id, 2);
    expect(emu.model.getTicket('acme', ticket.id).status).toBe('resolved');
  });

  it('does not wake for an internal note or an agent message', async () => {
    const scheduler = new ManualScheduler();
    emu = await emulator({ scheduler });
    const ticket = emu.model.createTicket('acme', { title: 'Monitor', requester_email: ANA });
    scheduler.runAll();
    emu.model.addMessage('acme', ticket.id, { body: 'note', author_email: ANA, internal: true });
    emu.model.addMessage('acme', ticket.id, { body: 'reply', author_email: SAM });
    expect(scheduler.pending).toBe(0);
  });

  it('stays silent on a ticket a human agent was assigned before it acted', async () => {
    const scheduler = new ManualScheduler();
    emu = await emulator({ scheduler });
    const ticket = emu.model.createTicket('acme', {
      title: 'Forgot my password',
      requester_email: ANA,
    });
    emu.model.updateTicket('acme', ticket.id, { assignee_email: SAM });
    scheduler.runAll();
    expect(aiMessages(ticket.id)).toEqual([]);
  });

  it('leaves alone a ticket someone resolved before it acted', async () => {
    const scheduler = new ManualScheduler();
    emu = await emulator({ scheduler });
    const ticket = emu.model.createTicket('acme', { title: 'Printer jams', requester_email: ANA });
    emu.model.updateTicket('acme', ticket.id, { status: 'resolved' });
    scheduler.runAll();
    expect(aiMessages(ticket.id)).toEqual([]);
    expect(emu.model.getTicket('acme', ticket.id).status).toBe('resolved');
  });

  it('stays out of a conversation it handed to humans', async () => {
    const scheduler = new ManualScheduler();
    emu = await emulator({ scheduler });
    const ticket = emu.model.createTicket('acme', { title: 'Printer jam', requester_email: ANA });
    scheduler.runAll();
    emu.model.addMessage('acme', ticket.id, { body: 'Any update?', author_email: ANA });
    scheduler.runAll();
    expect(aiMessages(ticket.id)).toHaveLength(1);
  });

  it('reads a burst of requester messages once', async () => {
    const scheduler = new ManualScheduler();
    emu = await emulator({ scheduler });
    const ticket = emu.model.createTicket('acme', { title: 'Help', requester_email: ANA });
    emu.model.addMessage('acme', ticket.id, { body: 'my password', author_email: ANA });
    emu.model.addMessage('acme', ticket.id, { body: 'expired today', author_email: ANA });
    expect(scheduler.pending).toBe(1);
  });

  it('cancels its pending work when the emulator closes', async () => {
    const scheduler = new ManualScheduler();
    emu = await emulator({ scheduler });
    emu.model.createTicket('acme', { title: 'Forgot my password', requester_email: ANA });
    await emu.close();
    expect(scheduler.pending).toBe(0);
  });
});
