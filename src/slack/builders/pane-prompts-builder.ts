/**
 * What Slack's AI pane shows the app: the suggested prompts when a person opens it, their
 * heading, and the status while the AI agent's answer is awaited. Pure: the catalog and the
 * desks are read by the caller, which passes what it has.
 */
import type { CatalogItem, Desk } from '../../contract/schemas.ts';

/** One suggested prompt: the button's words and what it sends as the person's message. */
export interface PanePrompt {
  title: string;
  message: string;
}

/** Slack takes at most four suggested prompts (`assistant.threads.setSuggestedPrompts`). */
export const MAX_PANE_PROMPTS = 4;

/** The heading above the prompts. */
export const PANE_PROMPTS_TITLE = 'What do you need help with?';

/** The pane's status while the ticket is filed and the AI agent's answer is awaited. */
export const PANE_STATUS = 'Looking into it…';

/** The prompts shown when the catalog and the desks cannot be read (or the platform has none). */
export const DEFAULT_PANE_PROMPTS: readonly PanePrompt[] = [
  { title: 'My laptop won’t start', message: 'My laptop won’t start' },
  { title: 'Request software', message: 'I’d like to request software' },
  { title: 'Reset my password', message: 'I need my password reset' },
  { title: 'Access to an app', message: 'I need access to an application' },
];

// Slack cuts long titles anyway; a short one reads as a button.
const TITLE_MAX = 40;

function short(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= TITLE_MAX ? flat : `${flat.slice(0, TITLE_MAX - 1).trimEnd()}…`;
}

/** What the prompts are drawn from. */
export interface PanePromptSources {
  /** ASSISTANT_PROMPTS: undefined draws from the catalog and the desks; [] shows none. */
  configured: readonly string[] | undefined;
  /** The service catalog's items, when read (absent or unreadable: undefined). */
  catalog: readonly CatalogItem[] | undefined;
  /** The platform's desks, when read. */
  desks: readonly Desk[] | undefined;
}

/**
 * The suggested prompts: the configured ones as written; else up to two requests from the
 * catalog ("Request: New laptop", which files a ticket titled so) and up to two questions to
 * the top-level desks, the rest from whichever has more; else the defaults.
 */
export function buildPanePrompts(sources: PanePromptSources): PanePrompt[] {
  if (sources.configured !== undefined)
    return sources.configured
      .slice(0, MAX_PANE_PROMPTS)
      .map((message) => ({ title: short(message), message }));
  const requests = (sources.catalog ?? []).map((item) => ({
    title: short(`Request ${item.name}`),
    message: `Request: ${item.name}`,
  }));
  const questions = (sources.desks ?? [])
    .filter((desk) => !desk.parent_slug)
    .map((desk) => ({
      title: short(`Ask ${desk.name}`),
      message: `I have a question for ${desk.name}`,
    }));
  if (requests.length === 0 && questions.length === 0) return [...DEFAULT_PANE_PROMPTS];
  const half = MAX_PANE_PROMPTS / 2;
  const fromCatalog = Math.max(half, MAX_PANE_PROMPTS - questions.length);
  return [...requests.slice(0, fromCatalog), ...questions].slice(0, MAX_PANE_PROMPTS);
}
