/**
 * The agents' side of the sandbox in a real browser: a ticket Alice files in #it-help gets its
 * card in the private #it-triage (the IT desk's triage channel), and Sam Rivera, the agent,
 * works it from there: a reply in the card's thread is an internal note, "Reply to requester"
 * and "Send to requester" answer Alice in her thread, and Assign to me and Update change the
 * ticket, which both cards follow. Each test files its own ticket. Set
 * SANDBOX_SCREENSHOTS=docs/screenshots to refresh the README's screenshots.
 */
import { randomBytes } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type RunningSandbox, SANDBOX_TRIAGE_CHANNEL } from '../../tools/sandbox/sandbox.ts';
import { defaultIds } from '../../tools/slack-double/index.ts';
import { eventually } from '../support/eventually.ts';
import {
  actAs,
  CHROMIUM,
  fileTicketWithCommand,
  hasChromium,
  messageWith,
  regions,
  screenshot,
} from './browser.ts';
import { sandboxPages } from './sandbox-page.ts';

if (!hasChromium) {
  it.skip(`needs Debian’s chromium at ${CHROMIUM} (.ci/run installs it; apt-get install chromium)`);
}

// The machine running these may be busy: the mirror's posts get time to land.
const SLOW = { timeout: 30_000 };

describe.skipIf(!hasChromium)('the triage channel in a browser', () => {
  let sandbox: RunningSandbox;
  let page: Page;
  sandboxPages((frame) => {
    ({ sandbox, page } = frame);
  });

  /** A title no other test uses, of a request the AI agent hands to a person. */
  const unique = (words: string) => `${words} ${randomBytes(3).toString('hex')}`;

  const ticketTitled = (title: string) =>
    eventually(
      () =>
        sandbox.emulator.model
          .listTickets('acme', { page: 1, pageSize: 1_000 })
          .items.find((ticket) => ticket.title === title),
      10_000,
      `the ticket "${title}"`,
    );

  /** The AI agent's first answer; waiting for it keeps its hand-off from racing Sam. */
  const aiAnswer = (ticketId: string) =>
    eventually(
      () =>
        sandbox.emulator.model
          .listMessages('acme', ticketId)
          .find((m) => m.author.type === 'ai_agent'),
      15_000,
      'the AI agent’s answer on the platform',
    );

  /** What Alice's card's thread in #it-help holds, as Slack holds it. */
  const requesterThreadText = (cardTs: string) =>
    (sandbox.double.workspace.thread(defaultIds.itHelp, cardTs) ?? [])
      .map((m) => `${m.text ?? ''} ${JSON.stringify(m.blocks ?? [])}`)
      .join('\n');

  /** Alice files a ticket in #it-help; answers it and her card's ts. */
  const aliceFiles = async (title: string) => {
    await actAs(page, /Alice Archer/);
    const card = await fileTicketWithCommand(page, title);
    const ticket = await ticketTitled(title);
    const cardTs = await card.getAttribute('data-ts');
    if (!cardTs) throw new Error('the card has no ts');
    return { ticket, cardTs };
  };

  /** As Sam, in #it-triage: the ticket's triage card once the mirror has posted it. */
  const triageCardAsSam = async (title: string): Promise<Locator> => {
    await actAs(page, /Sam Rivera/);
    await page.getByRole('button', { name: 'Channel it-triage' }).click();
    const card = messageWith(regions(page).messages, title);
    await card.getByRole('button', { name: 'Assign to me' }).waitFor(SLOW);
    return card;
  };

  it('shows Sam the card of Alice’s new ticket in #it-triage; his thread reply is an internal note, Reply to requester reaches Alice, and Assign and Update move both cards', async () => {
    const title = unique('Second monitor stays black after docking');
    const { ticket, cardTs } = await aliceFiles(title);
    await aiAnswer(ticket.id);

    const card = await triageCardAsSam(title);
    expect(await card.textContent()).toContain(title);
    expect(await card.textContent()).toContain('Alice Archer');
    const cards = sandbox.double.workspace
      .history(SANDBOX_TRIAGE_CHANNEL)
      .filter((m) => m.text?.includes(ticket.id));
    expect(cards).toHaveLength(1);
    // The card follows the AI agent's hand-off to the team, as it follows every change.
    await card.getByText('In progress').first().waitFor(SLOW);
    await screenshot(page, '08-triage-card');

    // A reply in the card's thread: an internal note by Sam on the platform.
    await card.getByRole('button', { name: 'Reply in thread' }).click();
    const { thread, threadMessages, platform, modal } = regions(page);
    const reply = thread.getByRole('textbox', { name: 'Reply in thread' });
    const note = 'Internal: the dock firmware is two versions behind.';
    await reply.fill(note);
    await reply.press('Enter');
    const added = await eventually(
      () => sandbox.emulator.model.listMessages('acme', ticket.id).find((m) => m.body === note),
      15_000,
      'the internal note on the platform',
    );
    expect(added.internal).toBe(true);
    expect(added.author.email).toBe('sam.rivera@acme.example');
    await page.locator('#ticket-select').selectOption(ticket.id);
    await platform
      .getByRole('list', { name: 'Ticket conversation' })
      .locator('li', { hasText: note })
      .getByText('Internal note')
      .waitFor();

    // Reply to requester, from the card: a public message by Sam, in Alice's thread.
    const answer = 'Please update the dock from Self Service, then plug it in again.';
    await card.getByRole('button', { name: 'Reply to requester' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reply to requester' });
    await dialog.getByLabel('Reply').fill(answer);
    await dialog.getByRole('button', { name: 'Send' }).click();
    await modal.waitFor({ state: 'hidden' });
    const sent = await eventually(
      () => sandbox.emulator.model.listMessages('acme', ticket.id).find((m) => m.body === answer),
      15_000,
      'the reply on the platform',
    );
    expect(sent.internal).toBe(false);
    await eventually(
      () => requesterThreadText(cardTs).includes(answer),
      30_000,
      'the reply in Alice’s thread',
    );
    // The reply is in the triage thread once (Sam's own words are never posted back).
    await messageWith(threadMessages, answer).waitFor(SLOW);
    expect(await threadMessages.locator('li.message', { hasText: answer }).count()).toBe(1);
    expect(await threadMessages.locator('li.message', { hasText: note }).count()).toBe(1);
    await screenshot(page, '09-triage-thread');
    // The note was written before the reply, which has reached Alice: the note never will.
    expect(requesterThreadText(cardTs)).not.toContain('dock firmware');

    // Assign to me, then Update to Resolved, from the triage card.
    await card.getByRole('button', { name: 'Assign to me' }).click();
    await card.getByText('@Sam Rivera').first().waitFor(SLOW);
    await card.getByRole('button', { name: 'Update' }).click();
    const update = page.getByRole('dialog', { name: `Update ${ticket.id}` });
    await update.getByLabel('Status').selectOption({ label: 'Resolved' });
    await update.getByRole('button', { name: 'Save' }).click();
    await modal.waitFor({ state: 'hidden' });
    await card.getByText('Resolved').first().waitFor(SLOW);
    const onPlatform = sandbox.emulator.model.getTicket('acme', ticket.id);
    expect(onPlatform.status).toBe('resolved');
    expect(onPlatform.assignee_email).toBe('sam.rivera@acme.example');

    // Alice's card follows too.
    await actAs(page, /Alice Archer/);
    await page.getByRole('button', { name: 'Channel it-help' }).click();
    const aliceCard = page.locator(`li.message[data-ts="${cardTs}"]`);
    await aliceCard.getByText('Resolved').first().waitFor(SLOW);
    await aliceCard.getByText('@Sam Rivera').first().waitFor(SLOW);
    await aliceCard.getByRole('button', { name: /repl(y|ies)/ }).click();
    await messageWith(threadMessages, answer).waitFor(SLOW);
    expect(await threadMessages.locator('li.message', { hasText: 'dock firmware' }).count()).toBe(
      0,
    );
  }, 150_000);

  it('sends Sam’s own message in the triage thread to Alice with the Send to requester shortcut', async () => {
    const title = unique('Headset microphone is muted in every call');
    const { ticket, cardTs } = await aliceFiles(title);
    await aiAnswer(ticket.id);
    const card = await triageCardAsSam(title);
    await card.getByRole('button', { name: 'Reply in thread' }).click();
    const { thread, threadMessages } = regions(page);
    const words = 'Hold the mute button for five seconds to reset it.';
    const reply = thread.getByRole('textbox', { name: 'Reply in thread' });
    await reply.fill(words);
    await reply.press('Enter');
    // First an internal note, as every agent's reply there.
    await eventually(
      () =>
        sandbox.emulator.model
          .listMessages('acme', ticket.id)
          .find((m) => m.body === words && m.internal),
      15_000,
      'the note on the platform',
    );
    const mine = messageWith(threadMessages, words);
    await mine.getByRole('button', { name: 'More actions' }).click();
    await mine.getByRole('menuitem', { name: 'Send to requester' }).click();
    const sent = await eventually(
      () =>
        sandbox.emulator.model
          .listMessages('acme', ticket.id)
          .find((m) => m.body === words && !m.internal),
      15_000,
      'the public message on the platform',
    );
    expect(sent.author.email).toBe('sam.rivera@acme.example');
    await eventually(
      () => requesterThreadText(cardTs).includes(words),
      30_000,
      'the message in Alice’s thread',
    );
  }, 120_000);
});
