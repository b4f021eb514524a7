/**
 * Opening the create modal. Slack's trigger_id lives 3 seconds, so the modal opens at once with
 * whatever desks (and the preselected desk's fields) are cached, then is filled in (desks, the
 * requester's devices, the desk's fields) by one views.update: the person waits on the platform
 * once, for all of them together. Every platform read it makes is paid from the opener's fair
 * share (`people/fair-share.ts`); the devices are kept for minutes, shared by replicas.
 */
import type { Asset, CustomField, Desk } from '../../servicedesk/index.ts';
import {
  type BusyReason,
  keptDevicesLine,
  type ListsBusy,
  listsNotListedLine,
} from '../builders/busy-builder.ts';
import { buildCreateModal } from '../builders/create-modal-builder.ts';
import type { SlackDeps } from '../deps.ts';
import { FairShareSpentError } from '../errors.ts';
import { busyOf } from '../people/fair-share.ts';
import type { PrivateTarget } from '../posting/private-notice.ts';
import { deskFieldsFor } from '../tickets/desk-fields.ts';
import {
  type CreateModalMetadata,
  encodeModalMetadata,
  requesterCandidates,
} from './modal-metadata.ts';
import { openModalOrTell } from './modal-opening.ts';

/**
 * What opening and filling the create modal use of the app's parts; without `deskFields` the
 * form has no desk fields.
 */
type CreateModalDeps = Pick<
  SlackDeps,
  'client' | 'desks' | 'logger' | 'people' | 'reads' | 'settings'
> &
  Partial<Pick<SlackDeps, 'deskFields'>>;

/** What the modal opens with. */
export interface OpenCreateModalArgs {
  triggerId: string;
  userId: string;
  metadata: CreateModalMetadata;
  title?: string | undefined;
  description?: string | undefined;
  /** A line of context above the form, already safe mrkdwn. */
  context?: string | undefined;
  /** Where the person can be told privately when the form cannot open (a response_url...). */
  tellAt?: Omit<PrivateTarget, 'userId'>;
}

/** Opens the create modal and then fills in desks and devices. */
export async function openCreateModal(
  deps: CreateModalDeps,
  args: OpenCreateModalArgs,
): Promise<void> {
  const deskSlug = args.metadata.channel
    ? deps.settings.channelDesks.get(args.metadata.channel)
    : undefined;
  const base = {
    privateMetadata: encodeModalMetadata(args.metadata),
    deskSlug,
    ...(args.title ? { title: args.title } : {}),
    ...(args.description ? { description: args.description } : {}),
    ...(args.context ? { context: args.context } : {}),
  };
  const typed = [args.title, args.description].filter(Boolean).join('\n\n');
  const opened = await openModalOrTell(
    deps,
    {
      trigger_id: args.triggerId,
      view: buildCreateModal({
        ...base,
        desks: deps.desks.peek() ?? [],
        fields: (deskSlug && deps.deskFields?.peek(deskSlug)) || [],
        loading: true,
      }),
    },
    { userId: args.userId, ...args.tellAt },
    typed,
  );
  const viewId = opened?.view?.id;
  if (!opened || !viewId) return;
  // No list is essential: without them the person can still file, and the platform routes.
  // Each read is paid from the opener's fair share; a list left out is said, with when to try
  // again, and a kept device list shown instead says how old it is.
  const [desks, devices, fields] = await Promise.all([
    formDesks(deps, args.userId),
    formDevices(deps, args.userId, requesterCandidates(args.metadata, args.userId)),
    formFields(deps, args.userId, deskSlug),
  ]);
  const now = deps.reads.now();
  const unlisted = desks.unlisted ?? devices.unlisted ?? fields.unlisted;
  const whose = devices.forOpener ? 'your' : 'the requester’s';
  const busyFor = (why: Unlisted) =>
    why.reason === 'down' ? undefined : { reason: why.reason, retryInMs: why.retryAt - now };
  const notices = [
    unlisted ? listsNotListedLine(busyFor(unlisted), whose) : undefined,
    devices.kept ? keptDevicesLine(now - devices.kept.keptAt, devices.kept.why, whose) : undefined,
  ].filter((line): line is string => line !== undefined);
  const listsNotice = notices.length > 0 ? notices.join('\n') : undefined;
  await deps.client.views
    .update({
      view_id: viewId,
      ...(opened.view?.hash ? { hash: opened.view.hash } : {}),
      view: buildCreateModal({
        ...base,
        desks: desks.value,
        assets: devices.value,
        fields: fields.value,
        ...(listsNotice ? { listsNotice } : {}),
      }),
    })
    .catch((error: unknown) => {
      // Submitted or closed before the lists arrived: nothing left to fill in.
      const code = (error as { data?: { error?: string } }).data?.error;
      if (code !== 'hash_conflict' && code !== 'not_found') throw error;
    });
}

/** Why a list was left out of the form: a share or budget refusal until `retryAt`, or down. */
type Unlisted = { reason: BusyReason; retryAt: number } | { reason: 'down' };

/** A list for the form, or what to say instead. */
interface FormList<T> {
  value: T[];
  unlisted?: Unlisted;
}

/** Why a read did not answer: the person's share, the budget or the platform's 429, or down. */
function unlistedBy(error: unknown, now: number): Unlisted {
  return busyOf(error, now) ?? { reason: 'down' };
}

// The desks: the kept copy, else one read paid from the opener's share.
async function formDesks(deps: CreateModalDeps, userId: string): Promise<FormList<Desk>> {
  try {
    return { value: await deps.desks.list(deps.reads.payer(userId, 'form')) };
  } catch (error) {
    if (!(error instanceof FairShareSpentError))
      deps.logger.warn({ err: error }, 'desks could not be loaded for the create modal');
    const cached = deps.desks.peek();
    return cached
      ? { value: cached }
      : { value: [], unlisted: unlistedBy(error, deps.reads.now()) };
  }
}

// The chosen desk's fields: a kept copy (fresh or stale), else one read paid from the share.
async function formFields(
  deps: CreateModalDeps,
  userId: string,
  deskSlug: string | undefined,
): Promise<FormList<CustomField>> {
  const { fields, refused } = await deskFieldsFor(deps, { userId, request: 'form' }, deskSlug);
  return refused
    ? { value: fields, unlisted: { reason: 'fair_share', ...refused } }
    : { value: fields };
}

/** The requester's devices for the form, or what to say instead. */
interface FormDevices extends FormList<Asset> {
  /** Whether the devices are the opener's own (else another requester's). */
  forOpener: boolean;
  /** Set when the devices are a kept list, not read again now: its time and why. */
  kept?: { keptAt: number; why: ListsBusy };
}

// The requester's devices (the first of the form's requesters with an email, as the filing
// chooses), read through the opener's fair share and kept for minutes.
async function formDevices(
  deps: CreateModalDeps,
  userId: string,
  requesters: readonly string[],
): Promise<FormDevices> {
  let forOpener = true;
  try {
    const requester = await requesterWithEmail(deps, requesters);
    if (!requester) return { value: [], forOpener };
    forOpener = requester.id === userId;
    const read = await deps.reads.devices(userId, requester.email);
    if (read.kind === 'read') return { value: read.value, forOpener };
    if (read.kept) {
      const why = { reason: read.reason, retryInMs: read.retryAt - deps.reads.now() };
      return { value: read.kept.value, forOpener, kept: { keptAt: read.kept.keptAt, why } };
    }
    return {
      value: [],
      forOpener,
      unlisted: { reason: read.reason, retryAt: read.retryAt },
    };
  } catch (error) {
    deps.logger.warn({ err: error }, 'devices could not be loaded for the create modal');
    return { value: [], forOpener, unlisted: unlistedBy(error, deps.reads.now()) };
  }
}

// The first of the form's requesters with an email, not a bot: whom the filing makes requester.
async function requesterWithEmail(
  deps: Pick<SlackDeps, 'people'>,
  ids: readonly string[],
): Promise<{ id: string; email: string } | undefined> {
  for (const id of ids) {
    const person = await deps.people.person(id);
    if (person.email && !person.isBot) return { id, email: person.email };
  }
  return undefined;
}
