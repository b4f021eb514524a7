/** Flows 1–4: `/ticket` opens the create modal, files a ticket, looks tickets up, lists them. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultIds } from '../../tools/slack-double/index.ts';
import { eventually } from '../support/eventually.ts';
import { modalOpenedBy, type Stack, startStack, ticketsOf } from '../support/stack.ts';

const { alice, bob, agent, itHelp, general } = defaultIds;

describe('/ticket', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack.close();
  });

  async function openModal(userId: string, channelId: string, text = '') {
    return modalOpenedBy(stack, userId, async () => {
      const command = await stack.driver.slashCommand({ userId, channelId, text });
      expect(command.status).toBe(200);
    });
  }

  it('opens the create modal with the channel’s desk preselected', async () => {
    const view = await openModal(alice, itHelp);
    expect(view.callback_id).toBe('create_ticket');
    const desk = view.blocks.find((b) => (b as { block_id?: string }).block_id === 'desk');
    const element = (desk as { element: { initial_option?: { value: string } } }).element;
    expect(element.initial_option?.value).toBe('it');
  });

  it('opens the modal with the title filled from the command’s words', async () => {
    const view = await openModal(alice, itHelp, 'Printer on 3rd floor jams');
    expect(JSON.stringify(view.blocks)).toContain('"initial_value":"Printer on 3rd floor jams"');
  });

  it('files every word of a 5,000-character /ticket: a title from its start, all of it as the description', async () => {
    const words = Array.from({ length: 700 }, (_, i) => `step${i}`).join(' ');
    expect(words.length).toBeGreaterThan(5_000);
    const view = await openModal(alice, itHelp, words);
    const inputs = (view.blocks as { type?: string; block_id?: string }[]).filter(
      (b) => b.type === 'input' && String(b.block_id).startsWith('description'),
    );
    expect(inputs.length).toBeGreaterThan(1);
    await stack.driver.viewSubmission({ viewId: view.id, userId: alice, values: {} });
    const ticket = await eventually(
      () => ticketsOf(stack, 'alice@acme.example').find((t) => t.description === words),
      5_000,
      'the ticket with the whole text',
    );
    expect(Array.from(ticket.title).length).toBeLessThanOrEqual(200);
    expect(words.startsWith(ticket.title.replace(/…$/, ''))).toBe(true);
  });

  it('shows a local validation error on the title field', async () => {
    const view = await openModal(alice, itHelp);
    const result = await stack.driver.viewSubmission({
      viewId: view.id,
      userId: alice,
      values: { title_input: '   ' },
    });
    expect(result.responseAction).toBe('errors');
    expect(result.body).toMatchObject({ errors: { title: expect.stringContaining('title') } });
  });

  it('shows the platform’s 422 on the field its loc names', async () => {
    const view = await openModal(alice, itHelp);
    // An admin deletes the desk after the modal listed it: the platform refuses desk_id.
    stack.emulator.model.removeDesk('acme', 'facilities');
    const result = await stack.driver.viewSubmission({
      viewId: view.id,
      userId: alice,
      values: { title_input: 'Broken chair', desk_select: 'facilities' },
    });
    expect(result.responseAction).toBe('errors');
    expect(result.responseActionError).toBeUndefined();
    expect(result.body).toMatchObject({ errors: { desk: expect.stringContaining('facilities') } });
    expect(stack.double.workspace.modalStack(alice).at(-1)?.id).toBe(view.id);
  });

  it('files the corrected submission of a refused modal', async () => {
    const view = await openModal(alice, itHelp);
    stack.emulator.model.removeDesk('acme', 'it-access');
    const refused = await stack.driver.viewSubmission({
      viewId: view.id,
      userId: alice,
      values: { title_input: 'Reset my MFA', desk_select: 'it-access' },
    });
    expect(refused.responseAction).toBe('errors');
    const corrected = await stack.driver.viewSubmission({
      viewId: view.id,
      userId: alice,
      values: { title_input: 'Reset my MFA', desk_select: 'it' },
    });
    expect(corrected.body).toMatchObject({ response_action: 'clear' });
    expect(
      ticketsOf(stack, 'alice@acme.example').filter((t) => t.title === 'Reset my MFA'),
    ).toHaveLength(1);
  });

  it('files the ticket from the modal and posts its card in the channel, linking the thread', async () => {
    const view = await openModal(alice, itHelp);
    const result = await stack.driver.viewSubmission({
      viewId: view.id,
      userId: alice,
      values: {
        title_input: 'Laptop will not boot',
        description_input: 'Black screen since this morning',
        priority_select: 'high',
      },
    });
    expect(result.status).toBe(200);
    const ticket = ticketsOf(stack, 'alice@acme.example').find(
      (t) => t.title === 'Laptop will not boot',
    );
    expect(ticket).toMatchObject({
      priority: 'high',
      desk_id: 'it',
      channel: 'slack',
      requester_email: 'alice@acme.example',
    });
    const card = await eventually(
      () =>
        stack.double.workspace
          .messages(itHelp)
          .find((m) => JSON.stringify(m.blocks ?? []).includes(ticket?.id ?? '?')),
      5_000,
      'the card in #it-help',
    );
    expect(await stack.app.stores.links.ticketForThread(itHelp, card.ts)).toBe(ticket?.id);
  });

  it('posts the card in a direct message when the app is not in the channel, and says so where the person filed', async () => {
    const view = await openModal(bob, general);
    await stack.driver.viewSubmission({
      viewId: view.id,
      userId: bob,
      values: { title_input: 'Badge does not open door' },
    });
    const dm = stack.double.workspace.openIm(bob);
    const card = await eventually(
      () =>
        stack.double.workspace
          .messages(dm)
          .find((m) => JSON.stringify(m.blocks ?? []).includes('Badge does not open door')),
      5_000,
      'the card in the DM',
    );
    expect(await stack.app.stores.links.ticketForThread(dm, card.ts)).toMatch(/^IT-\d+$/);
    expect(JSON.stringify(card.blocks)).toContain('The app is not a member there');
    const shown = JSON.stringify(stack.double.workspace.modalStack(bob).at(-1)?.blocks ?? []);
    expect(shown).toContain('is filed');
    expect(shown).toContain(`not a member of <#${general}>`);
    expect(shown).toContain('direct messages with the app');
  });
});

// A stack of its own: the forms opened above are paid from the people's fair share, which the
// lookups below count on.
describe('/ticket lookups', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack.close();
  });

  it('answers /ticket with an ID privately with the ticket’s card, whatever its case', async () => {
    const ticket = stack.emulator.model.createTicket('acme', {
      title: 'VPN drops hourly',
      requester_email: 'alice@acme.example',
    });
    const command = await stack.driver.slashCommand({
      userId: alice,
      channelId: itHelp,
      text: ticket.id.toLowerCase(),
    });
    const post = await stack.double.waitForResponseUrlPost(
      (p) => p.url === command.responseUrl,
      5_000,
    );
    expect(post.body).toMatchObject({ response_type: 'ephemeral' });
    const text = JSON.stringify(post.body);
    expect(text).toContain(`*${ticket.id}* · VPN drops hourly`);
    expect(text).toContain('Priority');
  });

  it('answers an unknown ID and a ticket the person may not see with the same not found', async () => {
    const hidden = stack.emulator.model.createTicket('acme', {
      title: 'Private',
      requester_email: 'bob@acme.example',
    });
    const unknown = await stack.driver.slashCommand({
      userId: alice,
      channelId: itHelp,
      text: 'IT-99999',
    });
    const notTheirs = await stack.driver.slashCommand({
      userId: alice,
      channelId: itHelp,
      text: hidden.id,
    });
    const a = await stack.double.waitForResponseUrlPost(
      (p) => p.url === unknown.responseUrl,
      5_000,
    );
    const b = await stack.double.waitForResponseUrlPost(
      (p) => p.url === notTheirs.responseUrl,
      5_000,
    );
    const normalise = (body: unknown) => JSON.stringify(body).replace(/IT-\d+/g, 'ID');
    expect(normalise(a.body)).toBe(normalise(b.body));
    expect(JSON.stringify(b.body)).not.toContain('Private');
  });

  it('says a ticket that exists but is not the person’s could not be found or is not theirs to see', async () => {
    const hidden = stack.emulator.model.createTicket('acme', {
      title: 'Bob’s payroll question',
      requester_email: 'bob@acme.example',
    });
    const command = await stack.driver.slashCommand({
      userId: alice,
      channelId: itHelp,
      text: hidden.id,
    });
    const post = await stack.double.waitForResponseUrlPost(
      (p) => p.url === command.responseUrl,
      5_000,
    );
    expect(post.body).toMatchObject({ response_type: 'ephemeral' });
    expect(JSON.stringify(post.body)).toContain(
      `I couldn’t find ${hidden.id}, or it isn’t yours to see`,
    );
    expect(JSON.stringify(post.body)).not.toContain('payroll');
  });

  it('looks a ticket up however its ID is typed: IT19, it-19, #it-19 or IT 19', async () => {
    const ticket = stack.emulator.model.createTicket('acme', {
      title: 'Typed every which way',
      requester_email: 'alice@acme.example',
    });
    const number = ticket.id.split('-')[1];
    for (const typed of [`IT${number}`, `it-${number}`, `#it-${number}`, `IT ${number}`]) {
      const command = await stack.driver.slashCommand({
        userId: alice,
        channelId: itHelp,
        text: typed,
      });
      const post = await stack.double.waitForResponseUrlPost(
        (p) => p.url === command.responseUrl,
        5_000,
      );
      expect(JSON.stringify(post.body), typed).toContain(`*${ticket.id}* · Typed every which way`);
    }
  });

  it('offers to file the words as a new ticket when words read as an ID find nothing', async () => {
    // Bob: Alice has used her burst of lookups (her fair share) in the tests above.
    const command = await stack.driver.slashCommand({
      userId: bob,
      channelId: itHelp,
      text: 'wifi 5',
    });
    const post = await stack.double.waitForResponseUrlPost(
      (p) => p.url === command.responseUrl,
      5_000,
    );
    const text = JSON.stringify(post.body);
    expect(text).toContain('I couldn’t find WIFI-5, or it isn’t yours to see');
    expect(text).toContain('/ticket new wifi 5');
  });

  it('shows any ticket to an agent', async () => {
    const ticket = stack.emulator.model.createTicket('acme', {
      title: 'Someone else’s',
      requester_email: 'bob@acme.example',
    });
    const command = await stack.driver.slashCommand({
      userId: agent,
      channelId: itHelp,
      text: ticket.id,
    });
    const post = await stack.double.waitForResponseUrlPost(
      (p) => p.url === command.responseUrl,
      5_000,
    );
    expect(JSON.stringify(post.body)).toContain('Someone else’s');
  });

  it('lists the person’s open tickets with /ticket mine', async () => {
    const open = stack.emulator.model.createTicket('acme', {
      title: 'Open one',
      requester_email: 'bob@acme.example',
    });
    const done = stack.emulator.model.createTicket('acme', {
      title: 'Closed one',
      requester_email: 'bob@acme.example',
    });
    stack.emulator.model.updateTicket('acme', done.id, { status: 'closed' });
    const command = await stack.driver.slashCommand({
      userId: bob,
      channelId: itHelp,
      text: 'mine',
    });
    const post = await stack.double.waitForResponseUrlPost(
      (p) => p.url === command.responseUrl,
      5_000,
    );
    const text = JSON.stringify(post.body);
    expect(text).toContain(open.id);
    expect(text).not.toContain('Closed one');
  });

  it('explains itself with /ticket help', async () => {
    const command = await stack.driver.slashCommand({
      userId: bob,
      channelId: itHelp,
      text: 'help',
    });
    expect(command.body).toMatchObject({ response_type: 'ephemeral' });
    expect(JSON.stringify(command.body)).toContain('/ticket mine');
  });

  it('says in /ticket help that the reaction works where the app is a member, and how to invite it', async () => {
    const command = await stack.driver.slashCommand({
      userId: bob,
      channelId: itHelp,
      text: 'help',
    });
    expect(JSON.stringify(command.body)).toContain('invite me with `/invite @Service Desk`');
  });
});
