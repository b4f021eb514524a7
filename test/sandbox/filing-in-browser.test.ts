/**
 * Filing the way each desk needs, in the sandbox in a real browser: #laptop-help is a request
 * channel (every new message a ticket on the IT desk, answered in its thread), the create form
 * shows the chosen desk's own fields and swaps them when the desk changes, and
 * `/ticket request` searches the service catalog through the app's answers to Slack's
 * block_suggestion. Each test files its own ticket. Set SANDBOX_SCREENSHOTS=docs/screenshots
 * to refresh the README's screenshots.
 */
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Ticket } from '../../src/contract/schemas.ts';
import { type RunningSandbox, SANDBOX_REQUEST_CHANNEL } from '../../tools/sandbox/sandbox.ts';
import { eventually } from '../support/eventually.ts';
import { CHROMIUM, hasChromium, messageWith, regions, screenshot } from './browser.ts';
import { sandboxPages } from './sandbox-page.ts';

if (!hasChromium) {
  it.skip(`needs Debian’s chromium at ${CHROMIUM} (.ci/run installs it; apt-get install chromium)`);
}

// The machine running these may be busy: the app's answers get time to land.
const SLOW = { timeout: 30_000 };

describe.skipIf(!hasChromium)('filing the way each desk needs, in a browser', () => {
  let sandbox: RunningSandbox;
  let page: Page;
  sandboxPages((frame) => {
    ({ sandbox, page } = frame);
  });

  /** Words no other test uses. */
  const unique = (words: string) => `${words} ${randomBytes(3).toString('hex')}`;

  const ticketWhere = (what: string, found: (ticket: Ticket) => boolean) =>
    eventually(
      () =>
        sandbox.emulator.model
          .listTickets('acme', { page: 1, pageSize: 1_000 })
          .items.find((ticket) => found(ticket)),
      15_000,
      what,
    );

  /** Types a command in the composer and waits for the dialog it opens. */
  const command = async (text: string, dialogName: string) => {
    const { composer } = regions(page);
    await composer.fill(text);
    await composer.press('Enter');
    const dialog = page.getByRole('dialog', { name: dialogName });
    await dialog.waitFor(SLOW);
    return dialog;
  };

  it('files a message written in #laptop-help as a ticket on the IT desk, its card in the message’s thread', async () => {
    const words = unique('My laptop fan is loud all day');
    await page.getByRole('button', { name: 'Channel laptop-help' }).click();
    const { composer, messages, threadMessages } = regions(page);
    await composer.fill(words);
    await composer.press('Enter');
    const ticket = await ticketWhere('the ticket from #laptop-help', (t) => t.title === words);
    expect(ticket).toMatchObject({ desk_id: 'it', requester_email: 'alice@acme.example' });
    const message = messageWith(messages, words);
    await message.getByRole('button', { name: /repl(y|ies)/ }).click(SLOW);
    await messageWith(threadMessages, ticket.id).waitFor(SLOW);
    const written = sandbox.double.workspace
      .messages(SANDBOX_REQUEST_CHANNEL)
      .filter((m) => m.text === words);
    expect(written).toHaveLength(1);
    await screenshot(page, '10-request-channel');
  }, 60_000);

  it('shows the IT desk’s fields in the create form, and People’s once the desk is switched, keeping what was typed', async () => {
    const title = unique('New starter needs an account');
    const dialog = await command('/ticket Something for a new starter', 'New ticket');
    const desk = dialog.getByLabel('Desk');
    await desk.waitFor();
    expect(await desk.inputValue()).toBe('it');
    await dialog.getByLabel('Device type').waitFor();
    await dialog.getByLabel('Office').waitFor();
    await dialog.getByLabel('Title').fill(title);
    await dialog.getByLabel('Description').fill('Starts on the first of the month in Lisbon.');
    await desk.selectOption({ label: 'People' });
    await dialog.getByLabel('Start date').waitFor(SLOW);
    await dialog.getByLabel(/Manager.s email/).waitFor();
    expect(await dialog.getByLabel('Device type').count()).toBe(0);
    expect(await dialog.getByLabel('Title').inputValue()).toBe(title);
    expect(await dialog.getByLabel('Description').inputValue()).toBe(
      'Starts on the first of the month in Lisbon.',
    );
    await dialog.getByLabel('Start date').fill('2027-01-04');
    await dialog.getByLabel(/Manager.s email/).fill('bob@acme.example');
    await screenshot(page, '11-desk-form');
    await dialog.getByRole('button', { name: 'File ticket' }).click();
    await regions(page).modal.waitFor({ state: 'hidden', ...SLOW });
    const ticket = await ticketWhere('the ticket on the People desk', (t) => t.title === title);
    expect(ticket.desk_id).toBe('hr');
    expect(ticket.custom_fields).toMatchObject({
      start_date: '2027-01-04',
      manager_email: 'bob@acme.example',
    });
  }, 60_000);

  it('opens the catalog with /ticket request laptop, the match chosen with its desk’s fields, and files it on that desk', async () => {
    const details = unique('For the new designer, with a UK keyboard');
    const dialog = await command('/ticket request laptop', 'Request something');
    const item = dialog.getByLabel('What do you need?', { exact: true });
    await item.waitFor();
    expect(await item.locator('option:checked').textContent()).toBe('New laptop');
    await dialog.getByText('A standard laptop with the company image.').waitFor();
    await dialog.getByLabel('Serial number').waitFor();
    await dialog.getByLabel('Anything the desk should know?').fill(details);
    await screenshot(page, '12-catalog');
    await dialog.getByRole('button', { name: 'Request' }).click();
    await regions(page).modal.waitFor({ state: 'hidden', ...SLOW });
    const ticket = await ticketWhere('the catalog request', (t) => t.description === details);
    expect(ticket).toMatchObject({
      title: 'New laptop',
      desk_id: 'it-hardware',
      requester_email: 'alice@acme.example',
    });
    expect(ticket.custom_fields).toMatchObject({ catalog_item_id: 'cat_001' });
  }, 60_000);

  it('searches the catalog as words are typed (Slack’s block_suggestion to the app) and shows the chosen item’s form', async () => {
    const dialog = await command('/ticket request', 'Request something');
    const search = dialog.getByRole('searchbox', { name: 'Search: What do you need?' });
    await search.fill('parking');
    const item = dialog.getByLabel('What do you need?', { exact: true });
    // Entering the box shows the whole catalog; the words narrow it to what matches.
    await item.locator('option', { hasText: 'New laptop' }).waitFor({ state: 'detached' });
    await item.locator('option', { hasText: 'Parking permit' }).waitFor({ state: 'attached' });
    await item.selectOption({ label: 'Parking permit' });
    await dialog.getByText('A permit for the office garage.').waitFor(SLOW);
    await dialog.getByLabel('Floor').waitFor();
    expect(await item.locator('option:checked').textContent()).toBe('Parking permit');
    await dialog.getByRole('button', { name: 'Request' }).click();
    await regions(page).modal.waitFor({ state: 'hidden', ...SLOW });
    const ticket = await ticketWhere(
      'the parking permit request',
      (t) => t.title === 'Parking permit',
    );
    expect(ticket.desk_id).toBe('facilities');
  }, 60_000);
});
