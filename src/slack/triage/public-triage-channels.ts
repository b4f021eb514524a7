/**
 * The start-up look at the triage channels in force (DESK_TRIAGE_CHANNELS and those set with
 * `/ticket triage`): each one Slack does not call private is logged at error level, as it is
 * again whenever a card or note for it is withheld (`threads/mirror-poster.ts`). Nothing is
 * changed: the channel gets no posts until it is private again, and `npm run doctor` fails on it.
 * Installed by OAuth and in no workspace yet, Slack cannot be asked: the look waits (`waiting`)
 * and the caller looks again later.
 */
import type { Logger } from 'pino';
import type { Stores } from '../../store/types.ts';
import { isInstalledNowhere } from '../errors.ts';
import { isSlackCallError } from '../outbox/transient-errors.ts';
import type { TriageChannelPrivacy } from './channel-privacy.ts';

/**
 * Logs each triage channel that is public (error) or that the app is not in (warn);
 * `waiting` when the app is installed in no workspace yet, so nothing could be asked.
 */
export async function logPublicTriageChannels(
  deps: { stores: Pick<Stores, 'triageChannels'>; logger: Logger },
  privacy: Pick<TriageChannelPrivacy, 'privacy'>,
): Promise<'checked' | 'waiting'> {
  const entries = await deps.stores.triageChannels.all();
  for (const channel of new Set(entries.map((entry) => entry.channel))) {
    const desks = entries.filter((entry) => entry.channel === channel).map((entry) => entry.desk);
    let found: Awaited<ReturnType<TriageChannelPrivacy['privacy']>>;
    try {
      found = await privacy.privacy(channel);
    } catch (error) {
      if (isInstalledNowhere(error)) return 'waiting';
      if (!isSlackCallError(error)) throw error;
      // Posts there wait until Slack says the channel is private.
      deps.logger.warn(
        { err: error, channel, desks },
        'could not tell whether a triage channel is private; nothing is posted there until Slack says',
      );
      continue;
    }
    if (found === 'public') {
      deps.logger.error(
        { channel, desks },
        'triage channel is public: no card or note is posted there; use a private channel (/ticket triage <desk> in it) and take this one out of DESK_TRIAGE_CHANNELS or run /ticket triage off in it',
      );
    } else if (found === 'absent') {
      deps.logger.warn(
        { channel, desks },
        'the app is not in a triage channel (or it was archived): its cards cannot be posted',
      );
    }
  }
  return 'checked';
}
