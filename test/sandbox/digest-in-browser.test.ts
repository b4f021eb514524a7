/**
 * The morning summary in the sandbox, in a real browser: Sam Rivera, the agent, presses "Send
 * today's digest now" on the platform panel and #it-triage gets today's summary (open,
 * unassigned, breached, due today, the oldest unassigned linked); pressed again, nothing more
 * is posted (one a day per channel) and the notice says so. Set SANDBOX_SCREENSHOTS=<dir> to
 * keep its screenshot.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type RunningSandbox, SANDBOX_TRIAGE_CHANNEL } from '../../tools/sandbox/sandbox.ts';
import { eventually } from '../support/eventually.ts';
import { actAs, CHROMIUM, hasChromium, messageWith, regions, screenshot } from './browser.ts';
import { sandboxPages } from './sandbox-page.ts';

if (!hasChromium) {
  it.skip(`needs Debian’s chromium at ${CHROMIUM} (.ci/run installs it; apt-get install chromium)`);
}

const SLOW = { timeout: 30_000 };

describe.skipIf(!hasChromium)('the morning summary in a browser', () => {
  let sandbox: RunningSandbox;
  let page: Page;
  sandboxPages((frame) => {
    ({ sandbox, page } = frame);
  });

  const digests = () =>
    sandbox.double.workspace
      .messages(SANDBOX_TRIAGE_CHANNEL)
      .filter((m) => m.metadata?.event_type === 'triage_digest');

  it('posts today’s summary in #it-triage once when Sam presses the button, and nothing more on a second press', async () => {
    await actAs(page, /Sam Rivera/);
    await page.getByRole('button', { name: 'Channel it-triage' }).click();
    await page.getByRole('button', { name: 'Send today’s digest now' }).click();
    const summary = messageWith(regions(page).messages, 'Morning summary');
    await summary.waitFor(SLOW);
    await page
      .getByText(/Today’s digest: #it-triage: (posted now|had today’s already)/)
      .waitFor(SLOW);
    const text = await summary.textContent();
    for (const figure of ['Open', 'Unassigned', 'Breached', 'Due today', 'Oldest unassigned']) {
      expect(text).toContain(figure);
    }
    await screenshot(page, '14-triage-digest');

    await page.getByRole('button', { name: 'Send today’s digest now' }).click();
    await page.getByText(/had today’s already \(one a day per channel\)/).waitFor(SLOW);
    await eventually(() => digests().length === 1, 5_000, 'one summary');
    expect(digests()).toHaveLength(1);
  });
});
