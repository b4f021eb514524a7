/**
 * What the create modal carries in `private_metadata` (3,000 characters at most): where it was
 * opened, so the submission knows where the card goes and which message it is about.
 */
import { z } from 'zod';
import { parseJsonAs } from '../builders/json-value.ts';

const metadataSchema = z.object({
  /** The channel where /ticket was used. */
  channel: z.string().optional(),
  /** The message a shortcut was used on, and its author. */
  message: z
    .object({
      channel: z.string(),
      ts: z.string(),
      threadTs: z.string().optional(),
      author: z.string().optional(),
    })
    .optional(),
});
/** The create modal's private metadata. */
export type CreateModalMetadata = z.infer<typeof metadataSchema>;

/**
 * Who the form's ticket is for, in order: from a message, its author (as with a reaction), then
 * whoever filed it; else whoever filed it. The first with an email, not a bot, is the requester.
 */
export function requesterCandidates(metadata: CreateModalMetadata, userId: string): string[] {
  const author = metadata.message?.author;
  return author && author !== userId ? [author, userId] : [userId];
}

/** Encodes the metadata for `private_metadata`. */
export function encodeModalMetadata(metadata: CreateModalMetadata): string {
  return JSON.stringify(metadata);
}

/** Decodes `private_metadata`; an unreadable value means "opened from nowhere in particular". */
export function decodeModalMetadata(raw: string | undefined): CreateModalMetadata {
  return parseJsonAs(metadataSchema, raw) ?? {};
}
