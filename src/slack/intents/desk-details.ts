/**
 * A filing without a form (🎫, a DM, a request channel) leaves the desk's fields empty. When the
 * platform refuses it for lacking required ones (a 422 at `["body","custom_fields","<key>"]`),
 * nothing is filed: the create-ticket intent keeps the filing (the person's words, resolved as
 * they were when it ran) for a day, completes under its delivery key (so that key never files),
 * and tells the person privately, with a button that opens a form for the fields. The form's
 * submission files the kept filing with the fields, under a key of its own derived from the
 * first (`deskDetailsKey`), through the same intent and its idempotency.
 */
import { z } from 'zod';
import type { CustomField } from '../../contract/schemas.ts';
import { type Ticket, ValidationError } from '../../servicedesk/index.ts';
import { DAY_MS, type JsonValue } from '../../store/types.ts';
import { deskFieldBlockId, deskFieldBlocks } from '../builders/desk-fields-builder.ts';
import { md } from '../builders/mrkdwn.ts';
import {
  buildDeskDetailsFollowUp,
  buildDeskDetailsPrompt,
} from '../builders/required-fields-prompt-builder.ts';
import type { IntentDeps, SlackDeps } from '../deps.ts';
import { DetailsNotKeptError } from '../errors.ts';
import { isTransient } from '../outbox/transient-errors.ts';
import { tellPrivately } from '../posting/private-notice.ts';
import { deskFieldsOf } from '../tickets/desk-fields.ts';
import { type CreateTicketPayload, createTicketPayloadSchema } from './payloads.ts';

// The claim a kept filing lives under, by its first delivery key.
const PENDING_PREFIX = 'desk-details:';
// The lease of a kept filing's claim: writing it is one store request.
const KEEP_LEASE_MS = 5_000;

/** A filing the platform refused, kept until its desk's fields are added. */
export interface PendingFiling {
  /** The create-ticket payload to file, its words and desk set, its thread known. */
  filing: CreateTicketPayload;
  /** The desk that asked. */
  deskId: string;
  /** The fields the platform named (their keys). */
  keys: string[];
}

/** A ticket the platform filed without its desk's required fields, until they are added. */
export interface PendingTicket {
  ticketId: string;
  /** Who filed it: only they add its details. */
  actorUserId: string;
  /** Where they filed, to tell them a failure privately. */
  channel?: string | undefined;
  threadTs?: string | undefined;
  deskId: string;
  /** The required fields it lacks (their keys). */
  keys: string[];
}

/** What a prompt's button finds: a refused filing, or a filed ticket lacking fields. */
export type PendingDetails = PendingFiling | PendingTicket;

const pendingSchema = z.union([
  z.object({
    filing: createTicketPayloadSchema,
    deskId: z.string(),
    keys: z.array(z.string()),
  }),
  z.object({
    ticketId: z.string(),
    actorUserId: z.string(),
    channel: z.string().optional(),
    threadTs: z.string().optional(),
    deskId: z.string(),
    keys: z.array(z.string()),
  }),
]);

/** Whether the kept details are for a filed ticket (the form updates it) or a refused filing. */
export function isPendingTicket(pending: PendingDetails): pending is PendingTicket {
  return 'ticketId' in pending;
}

/** Who may add the kept details: the person who filed. */
export function pendingActor(pending: PendingDetails): string {
  return isPendingTicket(pending) ? pending.actorUserId : pending.filing.actorUserId;
}

/** What the create-ticket intent remembers when it asked for the desk's fields instead. */
export interface AwaitingDetailsResult {
  awaitingDetails: true;
  deskId: string;
  keys: string[];
}

/** Whether a delivery key's remembered result is a filing waiting for its desk's fields. */
export function awaitsDetails(result: JsonValue | undefined): boolean {
  return (result as Partial<AwaitingDetailsResult> | null | undefined)?.awaitingDetails === true;
}

/**
 * Tells someone who asks again to file a message that waits for its desk's fields (a second 🎫)
 * what became of it: the person who filed it gets the prompt again (an ephemeral is gone once
 * Slack reloads), anyone else learns who is asked. Slack's failure is thrown.
 */
export async function tellAwaitingDetails(
  deps: Pick<SlackDeps, 'client' | 'stores' | 'desks'> & Partial<Pick<SlackDeps, 'deskFields'>>,
  firstDeliveryKey: string,
  asker: { userId: string; channel: string; threadTs?: string | undefined },
): Promise<void> {
  const pending = await pendingDetailsOf(deps, firstDeliveryKey);
  if (!pending || isPendingTicket(pending)) return;
  const actor = pending.filing.actorUserId;
  if (actor !== asker.userId) {
    const text = `:memo: This message is waiting for details its desk needs before it is filed; <@${actor}> was asked for them.`;
    await tellPrivately(deps.client, asker, {
      text,
      blocks: [{ type: 'section', text: md(text) }],
    });
    return;
  }
  const kept = deps.deskFields?.peek(pending.deskId);
  const desk = (deps.desks.peek() ?? []).find((d) => d.slug === pending.deskId);
  await tellPrivately(
    deps.client,
    asker,
    buildDeskDetailsPrompt({
      deskName: desk?.name ?? pending.deskId,
      fieldNames: pending.keys.map((key) => kept?.find((f) => f.key === key)?.name || key),
      title: pending.filing.ticket?.title ?? '',
      pendingKey: firstDeliveryKey,
    }),
  );
}

/** The delivery key the details form files under: one ticket per refused filing. */
export function deskDetailsKey(firstDeliveryKey: string): string {
  return `details:${firstDeliveryKey}`;
}

/** The keys of the desk fields a 422 names, or undefined when it names anything else too. */
export function missingDeskFields(error: unknown): string[] | undefined {
  if (!(error instanceof ValidationError) || error.issues.length === 0) return undefined;
  const keys: string[] = [];
  for (const issue of error.issues) {
    const [where, field, key] = issue.loc;
    if (where !== 'body' || field !== 'custom_fields' || key === undefined) return undefined;
    if (!keys.includes(String(key))) keys.push(String(key));
  }
  return keys;
}

/** The kept filing of a first delivery key; undefined once a day has passed (or never kept). */
export async function pendingDetailsOf(
  deps: Pick<SlackDeps, 'stores'>,
  firstDeliveryKey: string,
): Promise<PendingDetails | undefined> {
  const record = await deps.stores.claims.get(`${PENDING_PREFIX}${firstDeliveryKey}`);
  if (record?.state !== 'done') return undefined;
  const parsed = pendingSchema.safeParse(record.result);
  return parsed.success ? (parsed.data as PendingDetails) : undefined;
}

// Keeps the filing once: a retry of the intent finds it kept and tells the person again. A key
// held by a run that died between its two steps is free again after the lease.
async function keep(deps: IntentDeps, firstDeliveryKey: string, pending: PendingDetails) {
  const key = `${PENDING_PREFIX}${firstDeliveryKey}`;
  const claim = await deps.stores.claims.claim(key, KEEP_LEASE_MS);
  if (claim.state === 'done') return;
  if (claim.state === 'busy') throw new DetailsNotKeptError(key);
  await deps.stores.claims.complete(key, claim.token, pending as unknown as JsonValue, DAY_MS);
}

// The desk's fields, to name them; undefined when the platform does not list them now. Asked
// afresh: a refusal is rare, and the platform's own list is the one it just refused against.
async function definitions(deps: IntentDeps, deskId: string): Promise<CustomField[] | undefined> {
  try {
    const page = await deps.serviceDesk.listCustomFields(
      { desk_id: deskId, limit: 100 },
      { priority: 'interactive' },
    );
    return page.items.filter((field) => !field.desk_id || field.desk_id === deskId);
  } catch (error) {
    deps.logger.warn({ err: error, desk: deskId }, 'desk fields could not be read to name them');
    return undefined;
  }
}

async function deskName(deps: IntentDeps, deskId: string): Promise<string> {
  const desks = deps.desks.peek() ?? (await deps.desks.list().catch(() => []));
  return desks.find((desk) => desk.slug === deskId)?.name ?? deskId;
}

/** What was filed and where, as the create-ticket intent resolved it before the platform said no. */
export interface RefusedFiling {
  deliveryKey: string;
  payload: CreateTicketPayload;
  /** The ticket's fields as sent (read from the message for a reaction). */
  ticket: NonNullable<CreateTicketPayload['ticket']>;
  /** The requesters in the order the intent chose them (a message's author first). */
  requesterUserIds: string[];
  /** The thread the confirmation goes into, once known (a reacted message's). */
  threadTs: string | undefined;
}

/**
 * When the platform refused a filing without a form for lacking desk fields the form can ask
 * for: keeps the filing, tells the person privately with the button, and returns what the
 * intent remembers. Undefined when this is not such a refusal (a form's own submission, other
 * issues, no desk, fields the app cannot show): the intent fails as before, telling the person
 * why with their words.
 */
export async function askForDeskDetails(
  deps: IntentDeps,
  refused: RefusedFiling,
  error: unknown,
): Promise<AwaitingDetailsResult | undefined> {
  const { payload, ticket } = refused;
  // A form shows the platform's issues on its own inputs.
  if (payload.viewId) return undefined;
  const keys = missingDeskFields(error);
  const deskId = ticket.desk_id;
  if (!keys || !deskId) return undefined;
  const fields = await definitions(deps, deskId);
  if (fields) {
    // Every field named must be one the form can show, or the form could never file.
    const shown = new Set(deskFieldBlocks(fields).map((block) => block.block_id));
    const showable = keys.every((key) =>
      fields.some((field) => field.key === key && shown.has(deskFieldBlockId(key))),
    );
    if (!showable) return undefined;
  }
  const threadTs =
    payload.reply.kind === 'thread'
      ? (payload.reply.threadTs ?? refused.threadTs ?? payload.fromMessage?.ts)
      : undefined;
  const filing: CreateTicketPayload = {
    ...payload,
    requesterUserIds: refused.requesterUserIds,
    ticket,
    // The thread is known now: the details' filing does not read the message again.
    reply:
      payload.reply.kind === 'thread' && threadTs
        ? { kind: 'thread', channel: payload.reply.channel, threadTs }
        : payload.reply,
  };
  await keep(deps, refused.deliveryKey, { filing, deskId, keys });
  const names = keys.map((key) => fields?.find((field) => field.key === key)?.name || key);
  // Where they saw their message: in its thread only when it was a reply.
  const messageTs = payload.fromMessage?.ts ?? threadTs;
  await tellPrivately(
    deps.client,
    {
      userId: payload.actorUserId,
      channel: payload.reply.channel,
      ...(threadTs && threadTs !== messageTs ? { threadTs } : {}),
    },
    buildDeskDetailsPrompt({
      deskName: await deskName(deps, deskId),
      fieldNames: names,
      title: ticket.title,
      pendingKey: refused.deliveryKey,
    }),
  );
  deps.logger.info(
    { desk: deskId, fields: keys, channel: payload.reply.channel },
    'filing refused for lacking desk fields: kept, the person asked for them',
  );
  return { awaitingDetails: true, deskId, keys };
}

/** A ticket just filed from a filing without a form, and where its person acted. */
export interface FiledWithoutDetails {
  deliveryKey: string;
  payload: CreateTicketPayload;
  ticket: Ticket;
  /** The desk it was filed on (the platform's, else the one asked for). */
  deskId: string | undefined;
  /** The thread the confirmation went into, once known (a reacted message's). */
  threadTs: string | undefined;
}

/**
 * When the platform filed a ticket without required fields of its desk (a platform that asks
 * for them later): keeps what the form needs and tells the person privately, with the button
 * that opens a form whose submission updates the ticket. Nothing when the desk's fields are not
 * known or none is missing. The ticket stands whatever Slack does: only a transient failure is
 * thrown, for the entry to retry (its ticket and card are found again, not made twice).
 */
export async function offerDeskDetails(
  deps: IntentDeps,
  filed: FiledWithoutDetails,
): Promise<void> {
  const { payload, ticket, deskId } = filed;
  if (payload.viewId || !deskId) return;
  const fields = await deskFieldsOf(deps, deskId);
  const values = ticket.custom_fields ?? {};
  const missing = fields.filter((field) => field.required && isEmptyValue(values[field.key]));
  // Only fields the form can show: a form that cannot hold a field could not add it.
  const shown = new Set(deskFieldBlocks(missing).map((block) => block.block_id));
  const lacking = missing.filter((field) => shown.has(deskFieldBlockId(field.key)));
  if (lacking.length === 0) return;
  const threadTs =
    payload.reply.kind === 'thread' ? (payload.reply.threadTs ?? filed.threadTs) : undefined;
  const messageTs = payload.fromMessage?.ts ?? threadTs;
  const where = {
    channel: payload.reply.channel,
    ...(threadTs && threadTs !== messageTs ? { threadTs } : {}),
  };
  await keep(deps, filed.deliveryKey, {
    ticketId: ticket.id,
    actorUserId: payload.actorUserId,
    ...where,
    deskId,
    keys: lacking.map((field) => field.key),
  });
  try {
    await tellPrivately(
      deps.client,
      { userId: payload.actorUserId, ...where },
      buildDeskDetailsFollowUp({
        ticketId: ticket.id,
        deskName: await deskName(deps, deskId),
        fieldNames: lacking.map((field) => field.name || field.key),
        pendingKey: filed.deliveryKey,
      }),
    );
  } catch (error) {
    if (isTransient(error)) throw error;
    // Slack refused the prompt and the DM for good: the ticket is filed and its card says so;
    // the desk's agents ask for what is missing.
    deps.logger.warn(
      { err: error, ticket_id: ticket.id, desk: deskId },
      'desk details not asked for: Slack refused the prompt',
    );
    return;
  }
  deps.logger.info(
    { ticket_id: ticket.id, desk: deskId, fields: lacking.map((field) => field.key) },
    'ticket filed without required desk fields: the person asked for them',
  );
}

// A custom field value that says nothing, as the platform reads it.
function isEmptyValue(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    value === '' ||
    (Array.isArray(value) && value.length === 0)
  );
}
