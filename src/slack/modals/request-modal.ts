/**
 * Opening the request form (`/ticket request [words]`, App Home's "Request something"). Slack's
 * trigger_id lives 3 seconds, so the form opens at once from what is kept: the catalog, the
 * best match of the person's words, its desk's fields. Without a kept catalog the form opens
 * saying it is loading, and is filled in by one views.update once the platform answered: the
 * catalog select, or that the catalog is empty, absent or cannot be read now. With one, only
 * the match's desk fields can be missing, and the same update adds them.
 */
import type { CatalogItem, CustomField } from '../../servicedesk/index.ts';
import { isServiceDeskError } from '../../servicedesk/index.ts';
import { buildFailureNotice } from '../builders/notice-builder.ts';
import {
  buildRequestModal,
  type CatalogState,
  type RequestModalInput,
} from '../builders/request-modal-builder.ts';
import type { CatalogRead, SlackDeps } from '../deps.ts';
import { FairShareSpentError } from '../errors.ts';
import { isSlackCallError } from '../outbox/transient-errors.ts';
import { busyUntil } from '../people/fair-share.ts';
import { type PrivateTarget, tellPrivately } from '../posting/private-notice.ts';
import { deskFieldsFor } from '../tickets/desk-fields.ts';
import { bestCatalogMatch } from '../tickets/service-catalog.ts';
import { type CreateModalMetadata, encodeModalMetadata } from './modal-metadata.ts';
import { openModalOrTell } from './modal-opening.ts';

/** What opening and filling the request form use of the app's parts. */
export type RequestModalDeps = Pick<
  SlackDeps,
  'catalog' | 'client' | 'desks' | 'logger' | 'reads'
> &
  Partial<Pick<SlackDeps, 'deskFields'>>;

/** What the form opens with. */
export interface OpenRequestModalArgs {
  triggerId: string;
  userId: string;
  metadata: CreateModalMetadata;
  /** What the person typed after `request`: the best-matching item is preselected. */
  words?: string | undefined;
  /** Where the person can be told privately when the form cannot open or be filled in. */
  tellAt?: Omit<PrivateTarget, 'userId'>;
}

/** Opens the request form, then fills in what was not kept. */
export async function openRequestModal(
  deps: RequestModalDeps,
  args: OpenRequestModalArgs,
): Promise<void> {
  const privateMetadata = encodeModalMetadata(args.metadata);
  const kept = deps.catalog.peek();
  const first = kept ? formFrom(deps, kept, args.words) : undefined;
  const opened = await openModalOrTell(
    deps,
    {
      trigger_id: args.triggerId,
      view: buildRequestModal(
        // A kept catalog opens usable at once, the match's desk fields following if not kept.
        first ? { privateMetadata, ...first.input } : loadingInput(privateMetadata),
      ),
    },
    { userId: args.userId, ...args.tellAt },
    args.words,
  );
  const viewId = opened?.view?.id;
  // Everything was kept: the form is complete, and an update could only race the person's choice.
  if (!opened || !viewId || first?.complete) return;
  const input = await loadedInput(deps, args.userId, args.words);
  try {
    await deps.client.views.update({
      view_id: viewId,
      ...(opened.view?.hash ? { hash: opened.view.hash } : {}),
      view: buildRequestModal({ privateMetadata, ...input }),
    });
  } catch (error) {
    if (!isSlackCallError(error)) throw error;
    const code = (error as { data?: { error?: string } }).data?.error;
    // Chosen from, submitted or closed before the catalog arrived: nothing left to fill in.
    if (code === 'hash_conflict' || code === 'not_found') return;
    deps.logger.warn({ err: error, user: args.userId }, 'the request form could not be filled in');
    // Opened from a kept catalog, the form works as it is: only the desk's fields are missing,
    // and the platform names any it needs on submission.
    if (first) return;
    await tellPrivately(
      deps.client,
      { userId: args.userId, ...args.tellAt },
      buildFailureNotice(
        ':warning: Slack did not let the app fill in the request form. Please close it and try again.',
        args.words || undefined,
      ),
    );
  }
}

function loadingInput(privateMetadata: string): RequestModalInput {
  return { privateMetadata, catalog: { kind: 'loading' } };
}

type FormInput = Omit<RequestModalInput, 'privateMetadata'>;

// The form from a catalog read, with the match's fields given or else as kept: complete when
// nothing is missing.
function formFrom(
  deps: RequestModalDeps,
  read: CatalogRead,
  words: string | undefined,
  given?: readonly CustomField[],
): { input: FormInput; complete: boolean } {
  const state = catalogState(read);
  const item =
    read.kind === 'items' && state.kind === 'ready' && words
      ? bestCatalogMatch(read.items, words)
      : undefined;
  if (!item) return { input: { catalog: state }, complete: true };
  const fields = given ?? (item.desk_id ? deps.deskFields?.peek(item.desk_id) : []);
  return {
    input: { catalog: state, item, deskName: deskName(deps, item), fields: fields ?? [] },
    complete: fields !== undefined || !deps.deskFields,
  };
}

function catalogState(read: CatalogRead): CatalogState {
  if (read.kind === 'absent') return { kind: 'absent' };
  return read.items.length === 0 ? { kind: 'empty' } : { kind: 'ready' };
}

function deskName(deps: Pick<SlackDeps, 'desks'>, item: CatalogItem): string | undefined {
  return deps.desks.peek()?.find((desk) => desk.slug === item.desk_id)?.name;
}

// The catalog (waited for), the match's fields and the desks' names, each read once at most,
// and each read the person's action makes paid from their fair share.
async function loadedInput(
  deps: RequestModalDeps,
  userId: string,
  words: string | undefined,
): Promise<FormInput> {
  const paidBy = { userId, request: 'catalog' } as const;
  let read: CatalogRead;
  try {
    read = await deps.catalog.get(deps.reads.payer(userId, 'catalog'));
  } catch (error) {
    const spent = error instanceof FairShareSpentError;
    if (!spent && !isServiceDeskError(error)) throw error;
    if (!spent)
      deps.logger.warn(
        { err: error },
        'the service catalog could not be loaded for the request form',
      );
    const now = Date.now();
    const retryAt = busyUntil(error, now);
    return {
      catalog: {
        kind: 'unavailable',
        retryInMs: retryAt === undefined ? undefined : retryAt - now,
      },
    };
  }
  const match = read.kind === 'items' && words ? bestCatalogMatch(read.items, words) : undefined;
  const [{ fields }] = await Promise.all([
    deskFieldsFor(deps, paidBy, match?.desk_id),
    deskNames(deps, userId),
  ]);
  return formFrom(deps, read, words, fields).input;
}

// The desks, for their names: kept, or read once paid from the person's share. Only the desk's
// name can be missed: the item still shows with its desk's slug.
async function deskNames(deps: RequestModalDeps, userId: string): Promise<void> {
  await deps.desks.list(deps.reads.payer(userId, 'catalog')).catch((error: unknown) => {
    if (error instanceof FairShareSpentError) return;
    deps.logger.warn({ err: error }, 'desks could not be loaded for the request form');
  });
}
