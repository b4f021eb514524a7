/**
 * The workspace's "New laptop request" workflow in the sandbox, in a real browser: its button
 * runs the app's Workflow Builder step as Slack does, the ticket's card arrives in the
 * person's DM with the app, and the page says how the run ended. Set
 * SANDBOX_SCREENSHOTS=docs/screenshots to refresh the README's screenshot.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../tools/sandbox/sandbox.ts';
import { eventually } from '../support/eventually.ts';
import { CHROMIUM, hasChromium, messageWith, regions, screenshot } from './browser.ts';
import { sandboxPages } from './sandbox-page.ts';

if (!hasChromium) {
  it.skip(`needs Debian’s chromium at ${CHROMIUM} (.ci/run installs it; apt-get install chromium)`);
}

const SLOW = { timeout: 30_000 };

describe.skipIf(!hasChromium)('a workflow with the app’s step, in a browser', () => {
  let sandbox: RunningSandbox;
  let page: Page;
  sandboxPages((frame) => {
    ({ sandbox, page } = frame);
  });

  it('files a ticket from the “New laptop request” button, its card in the DM with the app', async () => {
    await page.getByRole('button', { name: 'New laptop request' }).click();
    const { notices, messages } = regions(page);
    const finished = notices.getByText(
      /Workflow “New laptop request” finished: ticket \S+ is filed/,
    );
    await finished.waitFor(SLOW);
    const ticketId = /ticket (\S+) is filed/.exec((await finished.textContent()) ?? '')?.[1];
    const ticket = await eventually(
      () =>
        sandbox.emulator.model
          .listTickets('acme', { page: 1, pageSize: 1_000 })
          .items.find((t) => t.id === ticketId),
      10_000,
      'the ticket',
    );
    expect(ticket).toMatchObject({
      desk_id: 'it-hardware',
      requester_email: 'alice@acme.example',
      custom_fields: { device_type: 'laptop' },
    });
    await page.getByRole('button', { name: 'App Service Desk' }).click();
    await page.getByRole('tab', { name: 'Messages' }).click();
    await messageWith(messages, ticket.id).waitFor(SLOW);
    await screenshot(page, '13-workflow-step');
  }, 60_000);
});
