/** Registers the external selects' options (Slack's `block_suggestion` requests). */
import type { App } from '@slack/bolt';
import type { SlackDeps } from '../../deps.ts';
import { CATALOG_FIELDS } from '../../ids.ts';
import { catalogSearch } from './catalog-search.ts';

/** Registers the request form's catalog search. */
export function registerOptions(app: App, deps: SlackDeps): void {
  app.options(CATALOG_FIELDS.item.action, catalogSearch(deps));
}
