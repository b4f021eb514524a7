/** Registers the slash command. */
import type { App } from '@slack/bolt';
import type { SlackDeps } from '../../deps.ts';
import { COMMAND } from '../../ids.ts';
import { ticketCommand } from './ticket-command.ts';

/** Registers `/ticket`. */
export function registerCommands(app: App, deps: SlackDeps): void {
  app.command(COMMAND, ticketCommand(deps));
}
