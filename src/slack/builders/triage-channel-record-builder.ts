/**
 * The record the app pins in a channel set with `/ticket triage`: it says in the channel what
 * the channel triages, and its metadata (`triageChannelMetadata`) is how the app finds the
 * setting again once Redis came back empty.
 */

import { TRIAGE_CATCH_ALL } from '../../store/types.ts';
import { md, safeMrkdwn } from './mrkdwn.ts';
import type { SlackMessage } from './ticket-card-builder.ts';

/** Builds the pinned record of a desk's (or the catch-all's) triage channel. */
export function buildTriageChannelRecord(record: {
  desk: string;
  deskName?: string | undefined;
  /** Who set it, when a person did (a record the app backfills names nobody). */
  setBy?: string | undefined;
}): SlackMessage {
  const what =
    record.desk === TRIAGE_CATCH_ALL
      ? 'tickets on no desk, and on desks with no triage channel of their own'
      : `*${safeMrkdwn(record.deskName ?? record.desk, 200)}* (\`${safeMrkdwn(record.desk, 100)}\`)`;
  // A Slack id is only ever the command's own user, never text from anyone.
  const by =
    record.setBy && /^[UW][A-Z0-9]+$/.test(record.setBy) ? `, set by <@${record.setBy}>` : '';
  const text = `:pushpin: This channel triages ${what}${by}: a card for each new ticket is posted here.`;
  const note =
    'The app keeps this message pinned to find the setting again if its store is lost. `/ticket triage off` here ends it.';
  return {
    text,
    blocks: [
      { type: 'section', text: md(text) },
      { type: 'context', elements: [md(note)] },
    ],
  };
}
