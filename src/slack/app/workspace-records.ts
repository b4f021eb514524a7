/**
 * A workspace's records in an app installed in several workspaces: given a home when a second
 * workspace installs (records written before homes were kept belong to the one that ran
 * alone), and removed when the workspace uninstalls the app.
 */
import type { Logger } from 'pino';
import type { InstallationRecords } from '../../store/install-types.ts';
import type { Stores } from '../../store/types.ts';
import { WorkspaceUninstalledError, WorkspaceUnknownError } from '../errors.ts';
import type {
  TriageChannelRecord,
  TriageChannelRecords,
} from '../tickets/triage-channel-records.ts';
import { type ConversationHomeBook, channelsOfRecords } from './conversation-homes.ts';
import type { InstalledTokens, WorkspaceScope } from './installed-clients.ts';

/**
 * Removes the records of a workspace that uninstalled the app: its homes, and the thread
 * links, triage channels and channel modes of its channels. What the platform holds stays, and
 * so do the other workspaces' records. What was removed, counted.
 */
export async function forgetWorkspace(
  workspace: string,
  kept: { homes: ConversationHomeBook; stores: Stores },
): Promise<{ ids: string[]; links: number; triage: number; modes: number }> {
  const { homes, stores } = kept;
  const ids = await homes.forget(workspace);
  const gone = new Set(ids);
  const links = ids.length > 0 ? await stores.links.unlinkChannels(ids) : 0;
  let triage = 0;
  for (const channel of new Set((await stores.triageChannels.all()).map((t) => t.channel))) {
    if (gone.has(channel)) triage += (await stores.triageChannels.clear(channel)).length;
  }
  let modes = 0;
  for (const channel of await stores.channelModes.channels()) {
    if (gone.has(channel) && (await stores.channelModes.remove(channel))) modes += 1;
  }
  return { ids, links, triage, modes };
}

/**
 * The installation store Bolt's installer writes to, which first gives today's records a home
 * when a second workspace installs: until then one workspace ran alone, so every channel its
 * records name (written before homes were kept) is that workspace's.
 */
export function adoptingRecords(
  installations: InstallationRecords,
  kept: { homes: ConversationHomeBook; tokens: InstalledTokens; stores: Stores; logger: Logger },
): InstallationRecords {
  return {
    async storeInstallation(installation, logger) {
      const existing = await installations.list();
      const [only] = existing;
      const incoming = installation.isEnterpriseInstall
        ? installation.enterprise?.id
        : installation.team?.id;
      const alone = only?.summary.kind === 'org' ? only.summary.enterpriseId : only?.summary.teamId;
      if (existing.length === 1 && alone && incoming !== alone) {
        const channels = await channelsOfRecords(kept.stores);
        const adopted = await kept.homes.adopt(channels, alone);
        kept.logger.info(
          { workspace: alone, channels: channels.length, adopted },
          'a second workspace installs the app: the records kept so far are the first one’s',
        );
      }
      await installations.storeInstallation(installation, logger);
      kept.tokens.installed();
    },
    fetchInstallation: (query) => installations.fetchInstallation(query),
    deleteInstallation: (query) => installations.deleteInstallation(query),
    list: () => installations.list(),
  };
}

/** The triage channels' records as the heal reads and writes them (`TriageChannelRecords`). */
type HealRecords = Pick<TriageChannelRecords, 'readAll' | 'remember'>;

/**
 * The triage channels' records of every installation: read back in each workspace in turn,
 * with its token (each workspace's private channels, and its own bot's pins), their channels
 * noted as that workspace's. Written (`remember`) with the token of the channel's home.
 * `recordsOf` gives one workspace's reader; it is made once per workspace.
 */
export function recordsOfEveryWorkspace(options: {
  recordsOf: (workspace: string) => Pick<TriageChannelRecords, 'readAll'>;
  writer: Pick<TriageChannelRecords, 'remember'>;
  tokens: Pick<InstalledTokens, 'every'>;
  scope: WorkspaceScope;
  homes: Pick<ConversationHomeBook, 'note'>;
}): HealRecords {
  const readers = new Map<string, Pick<TriageChannelRecords, 'readAll'>>();
  return {
    async readAll(signal) {
      const every = await options.tokens.every();
      // Installed nowhere yet: nothing can be read, so the heal tries again later.
      if (every.length === 0) throw new WorkspaceUnknownError(0);
      const found: TriageChannelRecord[] = [];
      for (const auth of every) {
        let reader = readers.get(auth.workspace);
        if (!reader) {
          reader = options.recordsOf(auth.workspace);
          readers.set(auth.workspace, reader);
        }
        let records: TriageChannelRecord[];
        try {
          records = await options.scope.run(auth, () =>
            (reader as Pick<TriageChannelRecords, 'readAll'>).readAll(signal),
          );
        } catch (error) {
          // Uninstalled while the heal went round: nothing of it is to be healed.
          if (error instanceof WorkspaceUninstalledError) continue;
          throw error;
        }
        for (const record of records) await options.homes.note(record.channel, auth.workspace);
        found.push(...records);
      }
      return found;
    },
    remember: (channel, record) => options.writer.remember(channel, record),
  };
}
