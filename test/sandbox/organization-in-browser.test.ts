/**
 * The sandbox as an Enterprise Grid organization, in a real browser: the app installed by OAuth
 * into Acme and Acme EU at start, and the Workspace switch beside "You are" showing one
 * workspace's channels, DMs and people at a time, with what the visitor was doing in the other
 * kept for the way back. Elsa files in Acme EU's #eu-help and the ticket's card comes back
 * there; Alice files in Acme and Sam triages in Acme EU. Set SANDBOX_SCREENSHOTS=docs/screenshots to refresh the README's screenshot.
 */
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../tools/sandbox/sandbox.ts';
import { defaultIds, secondIds } from '../../tools/slack-double/index.ts';
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
import { BROWSER_SANDBOX, sandboxPages } from './sandbox-page.ts';

if (!hasChromium) {
  it.skip(`needs Debian’s chromium at ${CHROMIUM} (.ci/run installs it; apt-get install chromium)`);
}

// The machine running these may be busy: the app's answers get time to land.
const SLOW = { timeout: 30_000 };

describe.skipIf(!hasChromium)('an organization of two workspaces, in a browser', () => {
  let sandbox: RunningSandbox;
  let page: Page;
  sandboxPages(
    (frame) => {
      ({ sandbox, page } = frame);
    },
    { ...BROWSER_SANDBOX, organization: true },
  );

  /** Words no other test uses. */
  const unique = (words: string) => `${words} ${randomBytes(3).toString('hex')}`;

  /** Switches the workspace shown, by its name in the Workspace menu. */
  const showWorkspace = (name: string) =>
    page.getByLabel('Workspace').selectOption({ label: name });

  /** Switches to a workspace and, once its people are offered, to one of them. */
  const beIn = async (workspace: string, person: RegExp) => {
    await showWorkspace(workspace);
    await page.getByLabel('You are').locator('option', { hasText: person }).waitFor({
      state: 'attached',
    });
    await actAs(page, person);
  };

  /** The names "You are" offers. */
  const identities = () => page.getByLabel('You are').locator('option').allTextContents();

  it('installs the app by OAuth into both workspaces at start, as their admins would', () => {
    expect(sandbox.organization).toBe(true);
    expect(sandbox.double.oauth.exchanges).toEqual([
      { owner: defaultIds.team, orgWide: false, ok: true },
      { owner: secondIds.team, orgWide: false, ok: true },
    ]);
  });

  it('shows Acme EU’s channels and people when the Workspace switch changes, and keeps Acme’s open form and thread for the way back', async () => {
    const { composer, messages, thread, modal } = regions(page);
    const words = unique('The lobby Wi-Fi drops');
    await composer.fill(words);
    await composer.press('Enter');
    const message = messageWith(messages, words);
    await message.getByRole('button', { name: 'Reply in thread' }).click();
    await thread.waitFor();
    await composer.fill('/ticket Second screen');
    await composer.press('Enter');
    const form = page.getByRole('dialog', { name: 'New ticket' });
    await form.getByLabel('Desk').waitFor(SLOW);
    await form.getByLabel('Description').fill('The left one flickers when it warms up.');

    await showWorkspace('Acme EU');
    await modal.waitFor({ state: 'hidden' });
    // Sam, the agent, is a member of both workspaces, as Grid lets a person be.
    expect(await identities()).toEqual(['Sam Rivera (IT agent)', 'Elsa Engel (employee)']);
    await actAs(page, /Elsa Engel/);
    await page.getByRole('button', { name: 'Channel eu-help' }).waitFor();
    expect(await page.getByRole('button', { name: 'Channel it-help' }).count()).toBe(0);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain('Acme EU');
    expect(await thread.isVisible()).toBe(false);

    await showWorkspace('Acme');
    await form.getByLabel('Desk').waitFor();
    expect(await page.getByLabel('You are').inputValue()).toBe(defaultIds.alice);
    expect(await form.getByLabel('Title').inputValue()).toBe('Second screen');
    expect(await form.getByLabel('Description').inputValue()).toBe(
      'The left one flickers when it warms up.',
    );
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'hidden' });
    await thread.getByText(words).waitFor();
  });

  it('files Elsa’s /ticket in Acme EU’s #eu-help: the card comes back there, and the ticket is hers on the platform', async () => {
    await showWorkspace('Acme EU');
    await actAs(page, /Elsa Engel/);
    await page.getByRole('button', { name: 'Channel eu-help' }).click();
    expect(await page.getByLabel('You are').inputValue()).toBe(secondIds.elsa);
    const title = unique('The Berlin office printer jams');
    await fileTicketWithCommand(page, title);
    const ticket = await eventually(
      () =>
        sandbox.emulator.model
          .listTickets('acme', { page: 1, pageSize: 1_000 })
          .items.find((each) => each.title === title),
      15_000,
      'the ticket on the platform',
    );
    expect(ticket.requester_email).toBe('elsa@acme.example');
    // The card is in Acme EU's channel, posted there by the app; Acme's channels have none.
    expect(
      sandbox.double.workspaces[1]
        ?.messages(secondIds.euHelp)
        .some((m) => m.bot_id !== undefined && JSON.stringify(m.blocks).includes(title)),
    ).toBe(true);
    const { platform } = regions(page);
    await platform.getByRole('heading', { name: `${ticket.id} ${title}` }).waitFor(SLOW);
    const detail = platform.getByRole('region', { name: 'Ticket' });
    await detail.getByText('Elsa Engel').first().waitFor();
    await screenshot(page, '20-organization-workspace');
  });

  it('keeps Acme’s person when the switch goes to Acme EU and back', async () => {
    await actAs(page, /Alice Archer/);
    await showWorkspace('Acme EU');
    await page.getByRole('button', { name: 'Channel eu-triage' }).waitFor();
    expect(await page.getByLabel('You are').inputValue()).not.toBe(defaultIds.alice);
    await showWorkspace('Acme');
    await page.getByRole('button', { name: 'Channel it-help' }).waitFor();
    expect(await page.getByLabel('You are').inputValue()).toBe(defaultIds.alice);
  });

  it('keeps Sam, a member of both workspaces, himself when the switch changes', async () => {
    await actAs(page, /Sam Rivera/);
    await showWorkspace('Acme EU');
    await page.getByRole('button', { name: 'Channel eu-triage' }).waitFor();
    expect(await page.getByLabel('You are').inputValue()).toBe(defaultIds.agent);
  });

  // Last: it moves the IT desk's triage channel to Acme EU for the rest of this sandbox.
  it('brings Alice’s ticket filed in Acme to the triage channel Sam keeps in Acme EU, naming her', async () => {
    await beIn('Acme EU', /Sam Rivera/);
    await page.getByRole('button', { name: 'Channel eu-triage' }).click();
    const { composer, messages } = regions(page);
    await composer.fill('/ticket triage it');
    await composer.press('Enter');
    await messageWith(messages, 'This channel triages IT Support').waitFor(SLOW);

    await beIn('Acme', /Alice Archer/);
    await page.getByRole('button', { name: 'Channel it-help' }).click();
    const title = unique('The Berlin VPN drops every ten minutes');
    await fileTicketWithCommand(page, title);

    await beIn('Acme EU', /Sam Rivera/);
    await page.getByRole('button', { name: 'Channel eu-triage' }).click();
    const card = messageWith(messages, title);
    await card.waitFor(SLOW);
    // Her name, as Grid shows a person of another workspace of the organization.
    await card.getByText('Alice Archer').first().waitFor();
    expect(
      sandbox.double.workspaces[1]
        ?.messages(secondIds.euTriage)
        .some((m) => m.metadata?.event_type === 'triage_card' && JSON.stringify(m).includes(title)),
    ).toBe(true);
    await screenshot(page, '21-organization-triage');
  }, 90_000);
});
