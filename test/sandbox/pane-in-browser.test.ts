/**
 * Slack's AI pane in the sandbox, in a real browser: "Open the AI pane" starts a conversation
 * beside the channel with the app's suggested prompts; what the visitor writes there is a
 * ticket, the conversation takes its title, and the platform's AI agent answers in it with
 * "Talk to a person". Set SANDBOX_SCREENSHOTS=docs/screenshots to save what it looks like.
 */
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../tools/sandbox/sandbox.ts';
import { eventually } from '../support/eventually.ts';
import { CHROMIUM, hasChromium, messageWith, screenshot } from './browser.ts';
import { sandboxPages } from './sandbox-page.ts';

if (!hasChromium) {
  it.skip(`needs Debian’s chromium at ${CHROMIUM} (.ci/run installs it; apt-get install chromium)`);
}

const SLOW = { timeout: 30_000 };

describe.skipIf(!hasChromium)('the AI pane, in a browser', () => {
  let sandbox: RunningSandbox;
  let page: Page;
  sandboxPages((frame) => {
    ({ sandbox, page } = frame);
  });

  it('opens with the prompts, files what is written there and shows the AI answer in it', async () => {
    await page.getByRole('button', { name: 'Open the AI pane' }).click();
    const pane = page.getByRole('complementary', { name: /Service Desk · New chat/ });
    await pane.waitFor(SLOW);
    const prompts = page.getByLabel('Suggested prompts');
    await prompts.getByRole('button', { name: 'Request New laptop' }).waitFor(SLOW);
    expect(await prompts.getByRole('button').count()).toBe(4);
    await screenshot(page, '15-ai-pane-prompts');

    const words = `I forgot my password and I am locked out ${randomBytes(3).toString('hex')}`;
    const input = page.getByRole('textbox', { name: 'Reply in thread' });
    await input.fill(words);
    await input.press('Enter');
    const ticket = await eventually(
      () =>
        sandbox.emulator.model
          .listTickets('acme', { page: 1, pageSize: 1_000 })
          .items.find((t) => t.title === words),
      15_000,
      'the ticket from the pane',
    );
    await page.getByRole('complementary', { name: new RegExp(`· ${words}`) }).waitFor(SLOW);
    const log = page.getByRole('log', { name: 'Thread messages' });
    await messageWith(log, ticket.id).waitFor(SLOW);
    await log.getByRole('button', { name: 'Talk to a person' }).waitFor(SLOW);
    expect(await prompts.isHidden()).toBe(true);
    await screenshot(page, '16-ai-pane-answer');
  }, 60_000);
});
