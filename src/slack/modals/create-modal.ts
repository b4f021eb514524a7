/**
 * Opening the create modal. Slack's trigger_id lives 3 seconds, so the modal opens at once with
 * whatever desks (and the preselected desk's fields) are cached, then is filled in (desks, the
 * person's devices, the desk's fields) by one views.update: the person waits on the platform
 * once, for all of them together.
 */
import type { Asset } from '../../servicedesk/index.ts';
import { listsNotListedLine } from '../builders/busy-builder.ts';
import { buildCreateModal } from '../builders/create-modal-builder.ts';
import type { SlackDeps } from '../deps.ts';
import { busyUntil } from '../people/fair-share.ts';
import type { PrivateTarget } from '../posting/private-notice.ts';
import { deskFieldsOf } from '../tickets/desk-fields.ts';
import { type CreateModalMetadata, encodeModalMetadata } from './modal-metadata.ts';
import { openModalOrTell } from './modal-opening.ts';

/**
 * What opening and filling the create modal use of the app's parts; without `deskFields` the
 * form has no desk fields.
 */
type CreateModalDeps = Pick<
  SlackDeps,
  'client' | 'desks' | 'logger' | 'people' | 'reads' | 'serviceDesk' | 'settings'
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
  // Neither list is essential: without them the person can still file, and the platform routes.
  // A list left out is said, with when the platform can be asked again when it is busy.
  let unlisted: unknown;
  const [desks, assets, fields] = await Promise.all([
    deps.desks.list().catch((error: unknown) => {
      deps.logger.warn({ err: error }, 'desks could not be loaded for the create modal');
      const cached = deps.desks.peek();
      if (!cached) unlisted = error;
      return cached ?? [];
    }),
    personAssets(deps, args.userId).catch((error: unknown) => {
      deps.logger.warn({ err: error }, 'devices could not be loaded for the create modal');
      unlisted = error;
      return [];
    }),
    deskFieldsOf(deps, deskSlug),
  ]);
  const retryAt = busyUntil(unlisted, deps.reads.now());
  const listsNotice =
    unlisted === undefined
      ? undefined
      : listsNotListedLine(retryAt === undefined ? undefined : retryAt - deps.reads.now());
  await deps.client.views
    .update({
      view_id: viewId,
      ...(opened.view?.hash ? { hash: opened.view.hash } : {}),
      view: buildCreateModal({
        ...base,
        desks,
        assets,
        fields,
        ...(listsNotice ? { listsNotice } : {}),
      }),
    })
    .catch((error: unknown) => {
      // Submitted or closed before the lists arrived: nothing left to fill in.
      const code = (error as { data?: { error?: string } }).data?.error;
      if (code !== 'hash_conflict' && code !== 'not_found') throw error;
    });
}

async function personAssets(deps: CreateModalDeps, userId: string): Promise<Asset[]> {
  const { email } = await deps.people.person(userId);
  if (!email) return [];
  const assets: Asset[] = [];
  for await (const asset of deps.serviceDesk.iterateAssets(
    { assigned_to_email: email },
    { maxItems: 100, priority: 'interactive' },
  )) {
    assets.push(asset);
  }
  return assets;
}
