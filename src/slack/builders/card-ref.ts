/**
 * Where a button was clicked, kept with a change so that the message can be brought up to date
 * once the change is made: the app's own ticket card (rebuilt with its lead), a private card
 * (replaced through its response_url), or another of the app's messages (the requester's
 * "resolved" DM), whose clicked buttons are replaced by a line saying what happened.
 */
import { z } from 'zod';
import { CARD_BLOCKS, TRIAGE_CARD_BLOCKS } from '../ids.ts';

/** Longest lead kept: it rides in modal metadata (3,000 characters in all). */
const LEAD_MAX = 1_000;
/** Longest permalink kept, for the same reason. */
const LINK_MAX = 500;

/** A message to refresh after a change. */
export const cardRefSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('card'),
    channel: z.string(),
    ts: z.string(),
    lead: z.string().optional(),
  }),
  z.object({
    kind: z.literal('ephemeral'),
    responseUrl: z.string(),
    lead: z.string().optional(),
  }),
  // A triage card: rebuilt as one, keeping who filed it and where, which the ticket does not say.
  z.object({
    kind: z.literal('triage'),
    channel: z.string(),
    ts: z.string(),
    requesterUserId: z.string().optional(),
    permalink: z.string().optional(),
  }),
  z.object({
    kind: z.literal('message'),
    channel: z.string(),
    ts: z.string(),
    text: z.string(),
    blocks: z.array(z.unknown()),
    actionsBlockId: z.string(),
  }),
]);
/** A message to refresh after a change. */
export type CardRef = z.infer<typeof cardRefSchema>;

/** The parts of a block_actions payload that say where the click happened. */
export interface ActionSite {
  container?: { type?: string; channel_id?: string; message_ts?: string; is_ephemeral?: boolean };
  channel?: { id?: string };
  message?: { ts?: string; text?: string; blocks?: unknown[] };
  response_url?: string;
}

interface BlockLike {
  type?: string;
  block_id?: string;
  elements?: { text?: unknown }[];
  fields?: { text?: unknown }[];
}

/** Whether the blocks are the app's triage card (its buttons carry the triage block id). */
export function isTriageCard(blocks: readonly unknown[]): boolean {
  return (blocks as BlockLike[]).some((b) => b.block_id === TRIAGE_CARD_BLOCKS.actions);
}

/**
 * What a triage card showed that the ticket does not say: the requester's Slack mention and the
 * link to the message it was filed from, read back from its fields.
 */
export function triageCardExtras(blocks: readonly unknown[]): {
  requesterUserId?: string;
  permalink?: string;
} {
  const texts = (blocks as BlockLike[]).flatMap((b) =>
    (b.fields ?? []).map((f) => (typeof f.text === 'string' ? f.text : '')),
  );
  const requester = texts.find((t) => t.startsWith('*Requester*'))?.match(/<@([UW][A-Z0-9]+)>/);
  const from = texts.find((t) => t.startsWith('*From*'))?.match(/<(https:\/\/[^|>\s]+)\|/);
  return {
    ...(requester?.[1] ? { requesterUserId: requester[1] } : {}),
    ...(from?.[1] && from[1].length <= LINK_MAX ? { permalink: from[1] } : {}),
  };
}

/** The card's lead line, if the blocks are the app's ticket card. */
export function cardLead(blocks: readonly unknown[]): string | undefined {
  const lead = (blocks as BlockLike[]).find((b) => b.block_id === CARD_BLOCKS.lead);
  const text = lead?.elements?.[0]?.text;
  return typeof text === 'string' && text.length <= LEAD_MAX ? text : undefined;
}

/** Whether the blocks are the app's ticket card (its buttons carry the card's block id). */
export function isCard(blocks: readonly unknown[]): boolean {
  return (blocks as BlockLike[]).some((b) => b.block_id === CARD_BLOCKS.actions);
}

/** Where a button was clicked, as a message to refresh; undefined outside a message. */
export function cardRefFromAction(site: ActionSite, actionBlockId: string): CardRef | undefined {
  const container = site.container;
  if (container?.type !== 'message') return undefined;
  if (container.is_ephemeral) {
    return site.response_url ? { kind: 'ephemeral', responseUrl: site.response_url } : undefined;
  }
  const channel = container.channel_id ?? site.channel?.id;
  const ts = container.message_ts ?? site.message?.ts;
  if (!channel || !ts) return undefined;
  const blocks = site.message?.blocks ?? [];
  if (isTriageCard(blocks)) return { kind: 'triage', channel, ts, ...triageCardExtras(blocks) };
  if (isCard(blocks)) {
    const lead = cardLead(blocks);
    return { kind: 'card', channel, ts, ...(lead ? { lead } : {}) };
  }
  return {
    kind: 'message',
    channel,
    ts,
    text: site.message?.text ?? '',
    blocks,
    actionsBlockId: actionBlockId,
  };
}
