/** Registers the block actions. */
import type { App } from '@slack/bolt';
import { ACTIONS } from '../../ids.ts';
import { openInDashboard } from './open-in-dashboard.ts';

/** Registers the card's buttons. */
export function registerActions(app: App): void {
  app.action(ACTIONS.openInDashboard, openInDashboard);
}
