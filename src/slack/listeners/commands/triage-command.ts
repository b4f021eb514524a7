/**
 * `/ticket triage <desk>|unrouted|off`, run by an agent in a channel: the channel becomes the
 * desk's triage channel (or the catch-all's, for tickets on no desk or on a desk with none of
 * its own), or stops being one. Answered privately through the command's response_url, after
 * the ack: whether the person is an agent, the desks and the channel are all asked of Slack or
 * the platform, and any of them may be slow. Setting a channel twice is harmless, so a retry
 * of the command needs no claim. A public channel is refused: a triage channel carries every
 * ticket's text and every internal note, so only a private one the app is in may be one.
 */
import type { RespondFn } from '@slack/bolt';
import { isServiceDeskError } from '../../../servicedesk/index.ts';
import { StoreError, TRIAGE_CATCH_ALL } from '../../../store/index.ts';
import { escapeMrkdwn } from '../../builders/mrkdwn.ts';
import type { SlackDeps } from '../../deps.ts';
import { isSlackCallError, isSlackRateLimited } from '../../outbox/transient-errors.ts';
import { type ChannelPrivacy, privacyOf } from '../../triage/channel-privacy.ts';

/** What the triage subcommand uses of the app's parts. */
export type TriageCommandDeps = Pick<
  SlackDeps,
  'client' | 'desks' | 'logger' | 'mirror' | 'people' | 'stores' | 'triageRecords'
>;

/** Who ran the command, where, and its words after `/ticket`. */
export interface TriageRequest {
  userId: string;
  channelId: string;
  text: string;
}

/** The subcommand's first word. */
export const TRIAGE_WORD = 'triage';

/** Whether the words after `/ticket` are the triage subcommand. */
export function isTriageCommand(text: string): boolean {
  const [first] = text.trim().toLowerCase().split(/\s+/, 1);
  return first === TRIAGE_WORD;
}

const ephemeral = (text: string) => ({ response_type: 'ephemeral' as const, text });

const USAGE =
  '`/ticket triage <desk>` makes this private channel the triage channel of a desk: a card for each of its new tickets is posted here, and its members are the desk’s agents. ' +
  '`/ticket triage unrouted` makes it the catch-all, for tickets on no desk or on a desk with no triage channel of its own. ' +
  '`/ticket triage off` ends what this channel triages. Several desks may share one channel.';

/** Answers `/ticket triage ...` privately; Slack, platform and store failures are told, bugs rethrown. */
export async function answerTriage(
  deps: TriageCommandDeps,
  request: TriageRequest,
  respond: RespondFn,
): Promise<void> {
  try {
    await respond(ephemeral(await triage(deps, request)));
  } catch (error) {
    const text = failureText(error);
    if (text === undefined) throw error;
    deps.logger.warn(
      { err: error, user: request.userId, channel: request.channelId },
      '/ticket triage could not be done',
    );
    await respond(ephemeral(text));
  }
}

async function triage(deps: TriageCommandDeps, request: TriageRequest): Promise<string> {
  if (!(await deps.people.isAgent(request.userId))) {
    return ':no_entry: Only service-desk agents can choose triage channels. Nothing changed.';
  }
  const [, argument = ''] = request.text.trim().split(/\s+/);
  const word = argument.toLowerCase();
  const channel = request.channelId;
  if (!/^[CG]/.test(channel)) {
    return ':warning: A triage channel is a channel agents share: run `/ticket triage` in that channel, not in a direct message. Nothing changed.';
  }
  const here = `<#${channel}>`;
  if (word === '') return USAGE;
  if (word === 'off') {
    const cleared = await deps.stores.triageChannels.clear(channel);
    if (cleared.length === 0) return `${here} was not a triage channel: nothing changed.`;
    const lines = [
      `${here} no longer triages ${deskList(cleared, deps.desks.peek())}. Their new tickets go to their own triage channel, or to the catch-all if one is set.`,
    ];
    if (!(await keptInSlack(deps, () => deps.triageRecords.forget(channel, cleared))))
      lines.push(UNPIN_FAILED);
    return lines.join('\n');
  }
  const catchAll = word === 'unrouted' || word === TRIAGE_CATCH_ALL;
  const desks = await deps.desks.list();
  const desk = catchAll ? undefined : desks.find((d) => d.slug.toLowerCase() === word);
  if (!catchAll && !desk) {
    const known = desks.map((d) => `\`${escapeMrkdwn(d.slug)}\` (${escapeMrkdwn(d.name)})`);
    return `:warning: The service desk has no desk \`${escapeMrkdwn(argument)}\`. Its desks: ${known.join(', ') || 'none'}. Or \`unrouted\` for tickets on no desk.`;
  }
  const conversation = await conversationOf(deps, channel);
  if (conversation === 'public') {
    // Every ticket's text and every internal note is posted in a triage channel.
    return `:no_entry: ${here} is public: anyone in the workspace could read every ticket's text and every internal note posted in a triage channel, so it cannot be one. Use a private channel: create one (or pick one) for the desk's agents, invite me with \`/invite @Service Desk\`, and run \`/ticket triage ${escapeMrkdwn(desk?.slug ?? 'unrouted')}\` there. Nothing changed.`;
  }
  if (conversation === 'absent') {
    return `:warning: I am not a member of ${here}, so I could not post its cards. Invite me with \`/invite @Service Desk\`, then run the command again. Nothing changed.`;
  }
  const slug = desk?.slug ?? TRIAGE_CATCH_ALL;
  const before = await deps.stores.triageChannels.set(slug, channel);
  const what = desk
    ? `*${escapeMrkdwn(desk.name)}* (\`${escapeMrkdwn(desk.slug)}\`)`
    : 'tickets on no desk, and on desks with no triage channel of their own';
  const lines = [
    before === channel
      ? `${here} already triages ${what}: nothing changed.`
      : `${here} now triages ${what}: a card for each new ticket is posted here.${before ? ` It took over from <#${before}>.` : ''}`,
  ];
  if (before !== channel) {
    await deps.mirror.triageChannelSet(slug, channel);
    const record = { desk: slug, deskName: desk?.name, setBy: request.userId };
    if (!(await keptInSlack(deps, () => deps.triageRecords.remember(channel, record))))
      lines.push(PIN_FAILED);
    // The desk's record where it was no longer says so, so it cannot come back there.
    if (before) await keptInSlack(deps, () => deps.triageRecords.forget(before, [slug]));
  }
  return lines.join('\n');
}

const PIN_FAILED =
  ':warning: Slack did not let me pin this setting in the channel, so if the app’s store is ever lost it will not come back by itself: run this command again then.';
const UNPIN_FAILED =
  ':warning: Slack did not let me unpin this channel’s triage record: unpin it by hand, or the setting may come back if the app’s store is ever lost.';

/**
 * Keeps the setting's record in Slack (`tickets/triage-channel-records.ts`); false when Slack
 * failed, which the person is told: the setting itself is made either way.
 */
async function keptInSlack(deps: TriageCommandDeps, keep: () => Promise<unknown>) {
  try {
    await keep();
    return true;
  } catch (error) {
    if (!isSlackCallError(error)) throw error;
    deps.logger.warn({ err: error }, 'triage channel record not kept in Slack');
    return false;
  }
}

/** Whether the channel is public, or private and the app in it (`absent` otherwise). */
async function conversationOf(deps: TriageCommandDeps, channel: string): Promise<ChannelPrivacy> {
  try {
    const info = await deps.client.conversations.info({ channel });
    return privacyOf(info.channel);
  } catch (error) {
    // A private channel the app is not in does not exist to it.
    if ((error as { data?: { error?: string } }).data?.error === 'channel_not_found')
      return 'absent';
    throw error;
  }
}

/** The desks as names where the catalog knows them, the catch-all in words. */
function deskList(slugs: readonly string[], desks: { slug: string; name: string }[] | undefined) {
  return slugs
    .map((slug) => {
      if (slug === TRIAGE_CATCH_ALL) return 'the catch-all (tickets on no desk)';
      const name = desks?.find((d) => d.slug === slug)?.name;
      return name ? `*${escapeMrkdwn(name)}*` : `\`${escapeMrkdwn(slug)}\``;
    })
    .join(', ');
}

/** What to tell the person when a part failed; undefined for a bug. */
function failureText(error: unknown): string | undefined {
  if (isSlackRateLimited(error))
    return ':hourglass_flowing_sand: Slack is busy and asked this app to wait. Nothing changed: please try again in a minute.';
  if (isSlackCallError(error))
    return ':warning: Slack did not answer this app (or refused), so nothing changed. Please try again in a minute.';
  if (isServiceDeskError(error))
    return ':hourglass_flowing_sand: The service desk did not list its desks just now, so nothing changed. Please try again in a minute.';
  if (error instanceof StoreError)
    return ':warning: The app could not save this just now, so nothing changed. Please try again in a minute.';
  return undefined;
}
