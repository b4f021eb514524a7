/**
 * The browser tests' common frame: one sandbox and one browser for a describe block, and for
 * each test a fresh page on #it-help, with no modal left over from a test that failed with one
 * open.
 */
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import {
  type RunningSandbox,
  type SandboxOptions,
  startSandbox,
} from '../../tools/sandbox/sandbox.ts';
import { defaultIds } from '../../tools/slack-double/index.ts';
import { launchBrowser, type TestBrowser } from './browser.ts';

/** What the frame hands a test: the sandbox, and the test's own page. */
export interface SandboxPage {
  sandbox: RunningSandbox;
  page: Page;
}

/** The browser tests' sandbox: a quick AI agent and quick event retries, so tests stay short. */
export const BROWSER_SANDBOX: SandboxOptions = {
  aiDelayMs: 400,
  eventRetryDelaysMs: [0, 300, 600],
};

/**
 * Registers the frame's hooks in the calling describe block; `bind` gets each test's sandbox
 * and page before it runs.
 */
export function sandboxPages(
  bind: (frame: SandboxPage) => void,
  options: SandboxOptions = BROWSER_SANDBOX,
): void {
  let sandbox: RunningSandbox | undefined;
  let browser: TestBrowser | undefined;
  let page: Page | undefined;

  beforeAll(async () => {
    sandbox = await startSandbox(options);
    browser = await launchBrowser();
  }, 40_000);

  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
  }, 20_000);

  beforeEach(async () => {
    if (!sandbox || !browser) throw new Error('the sandbox or the browser did not start');
    for (const user of [defaultIds.alice, defaultIds.bob, defaultIds.agent]) {
      sandbox.double.workspace.clearModals(user);
    }
    // An organization's other workspaces too (Acme EU's people).
    for (const { workspace } of sandbox.workspaces.slice(1)) {
      for (const user of workspace.users()) workspace.clearModals(user.id);
    }
    page = await browser.context.newPage();
    bind({ sandbox, page });
    await page.goto(sandbox.url);
    await page.getByRole('button', { name: 'Channel it-help' }).waitFor();
  });

  afterEach(async () => {
    await page?.close();
  });
}
