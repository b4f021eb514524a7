/**
 * A real browser for the sandbox's tests: Debian's Chromium driven by playwright-core (no
 * browser is ever downloaded), with a fresh profile each time, and helpers that act on the
 * simulator page the way a person does: by the names on its buttons, fields and dialogs.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { paletteVersion } from './small-png.ts';

/** Where Debian's chromium package puts the browser (`.ci/run` installs it). */
export const CHROMIUM = '/usr/bin/chromium';

/** Whether the browser is installed; the browser tests say so when it is not. */
export const hasChromium = existsSync(CHROMIUM);

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A browser with its own throwaway profile. */
export interface TestBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Launches Chromium. The page is laid out at 1280×880 CSS pixels and drawn at 0.78 scale, so a
 * screenshot is under 1000×700 while the layout is the desktop one.
 */
export async function launchBrowser(): Promise<TestBrowser> {
  const profile = await mkdtemp(join(tmpdir(), 'sandbox-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ARGS,
      viewport: { width: 1280, height: 880 },
      deviceScaleFactor: 0.78,
      timeout: 20_000,
    });
    context.setDefaultTimeout(10_000);
    return {
      context,
      async close() {
        await context.close().catch(() => undefined);
        await rm(profile, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(profile, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Saves a small screenshot for the README when SANDBOX_SCREENSHOTS names a directory (e.g.
 * `SANDBOX_SCREENSHOTS=docs/screenshots`); otherwise does nothing, so test runs never write
 * into the repository.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const directory = process.env.SANDBOX_SCREENSHOTS;
  if (!directory) return;
  await mkdir(directory, { recursive: true });
  // Let the last render and any focus ring settle.
  await page.waitForTimeout(150);
  const png = await page.screenshot({ animations: 'disabled', caret: 'hide' });
  await writeFile(join(directory, `${name}.png`), paletteVersion(png));
}

/** The page's regions, found by their accessible names. */
export function regions(page: Page) {
  return {
    messages: page.getByRole('log', { name: 'Messages' }),
    composer: page.getByRole('textbox', { name: /^Message / }),
    thread: page.getByRole('complementary', { name: /^Thread/ }),
    threadMessages: page.getByRole('log', { name: 'Thread messages' }),
    platform: page.getByRole('complementary', { name: 'Service-desk platform' }),
    modal: page.locator('dialog#modal'),
    notices: page.locator('#notices'),
  };
}

/** Switches who the visitor is, by the name shown in the "You are" menu. */
export async function actAs(page: Page, name: RegExp): Promise<void> {
  const select = page.getByLabel('You are');
  const options = await select.locator('option').allTextContents();
  const label = options.find((text) => name.test(text));
  if (!label) throw new Error(`no identity matching ${name} among ${options.join(', ')}`);
  await select.selectOption({ label });
}

/** The message in a log whose text contains `text` (the newest when several do). */
export function messageWith(log: Locator, text: string | RegExp): Locator {
  return log.locator('li.message', { hasText: text }).last();
}

/**
 * Files a ticket with `/ticket <title>` and the modal's "File ticket"; resolves on the card,
 * found by `cardText` (the title unless said otherwise).
 */
export async function fileTicketWithCommand(
  page: Page,
  title: string,
  cardText: string = title,
): Promise<Locator> {
  const { composer, modal, messages } = regions(page);
  await composer.fill(`/ticket ${title}`);
  await composer.press('Enter');
  await modal.getByRole('heading', { name: 'New ticket' }).waitFor();
  await modal.getByRole('button', { name: 'File ticket' }).click();
  await modal.waitFor({ state: 'hidden' });
  const card = messageWith(messages, cardText);
  await card.waitFor();
  return card;
}
