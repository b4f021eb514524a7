/**
 * Ticket links unfurl in the sandbox: Sam Rivera, the agent, pastes a ticket's dashboard link
 * in #it-help and the page shows the card Slack attaches under his message; Bob pasting Alice's
 * ticket's link gets only "a private ticket". Set SANDBOX_SCREENSHOTS=docs/screenshots to save
 * the screenshot.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../tools/sandbox/sandbox.ts';
import { actAs, CHROMIUM, hasChromium, messageWith, regions, screenshot } from './browser.ts';
import { sandboxPages } from './sandbox-page.ts';

if (!hasChromium) {
  it.skip(`needs Debian’s chromium at ${CHROMIUM} (.ci/run installs it; apt-get install chromium)`);
}

describe.skipIf(!hasChromium)('ticket links unfurl in a browser', () => {
  let sandbox: RunningSandbox;
  let page: Page;
  sandboxPages((frame) => {
    ({ sandbox, page } = frame);
  });

  const aliceTicket = (title: string) =>
    sandbox.emulator.model.createTicket('acme', {
      title,
      description: 'Only for IT',
      requester_email: 'alice@acme.example',
      priority: 'high',
    });

  async function paste(text: string) {
    const { composer, messages } = regions(page);
    await composer.fill(text);
    await composer.press('Enter');
    return messageWith(messages, text.slice(0, 20));
  }

  it('shows an agent’s pasted ticket link as the ticket’s card under the message', async () => {
    const ticket = aliceTicket('Projector in room 4 shows no picture');
    await actAs(page, /Sam Rivera/);
    const message = await paste(`Who is on ${ticket.url} ?`);
    const unfurl = message.locator('.attachment', { hasText: 'Projector in room 4' });
    await unfurl.waitFor({ timeout: 15_000 });
    await expect(unfurl.textContent()).resolves.toMatch(/Open in dashboard/);
    await screenshot(page, 'ticket-unfurl');
  }, 30_000);

  it('shows someone else’s ticket link as a private ticket', async () => {
    const ticket = aliceTicket('Laptop for the new hire');
    await actAs(page, /Bob Baker/);
    const message = await paste(`Is this done? ${ticket.url}`);
    const unfurl = message.locator('.attachment', { hasText: 'a private ticket' });
    await unfurl.waitFor({ timeout: 15_000 });
    await expect(message.textContent()).resolves.not.toMatch(/new hire/);
  }, 30_000);
});
