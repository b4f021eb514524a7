/**
 * `/ticket channel [auto|off]`: an agent makes the channel a request channel (every new message
 * a person writes there becomes a ticket on the channel's desk), stops it, or asks which it is.
 * Answered privately, after the ack, through the command's response_url: whether the app is in
 * the channel is a Slack call. A person who is not an agent is refused; nothing changes unless
 * the answer says so.
 */
import type { AllMiddlewareArgs, RespondFn, SlackCommandMiddlewareArgs } from '@slack/bolt';
import { type ChannelMode, StoreError } from '../../../store/index.ts';
import {
  buildChannelModeAgentsOnly,
  buildChannelModeFailed,
  buildChannelModeNotHere,
  buildChannelModeSet,
  buildChannelModeStatus,
  buildChannelModeUsage,
  type ChannelDesk,
  type ChannelModeOrigin,
} from '../../builders/channel-mode-builder.ts';
import type { SlackMessage } from '../../builders/ticket-card-builder.ts';
import type { SlackDeps } from '../../deps.ts';
import { isSlackCallError } from '../../outbox/transient-errors.ts';
import { appIsIn } from '../../posting/slack-posting.ts';

/** What the subcommand uses of the app's parts. */
export type ChannelModeDeps = Pick<
  SlackDeps,
  'client' | 'desks' | 'logger' | 'people' | 'settings' | 'stores' | 'tasks'
>;

type Args = Pick<SlackCommandMiddlewareArgs & AllMiddlewareArgs, 'command' | 'ack' | 'respond'>;

const ephemeral = (message: SlackMessage) => ({ response_type: 'ephemeral' as const, ...message });

/** Whether the command's words are the `channel` subcommand. */
export function isChannelModeCommand(text: string): boolean {
  return /^channel(\s|$)/i.test(text.trim());
}

/** What the words after `channel` ask: a mode to set, the mode as it stands, or nothing known. */
export function channelModeAsked(text: string): ChannelMode | 'status' | undefined {
  const rest = text
    .trim()
    .replace(/^channel/i, '')
    .trim()
    .toLowerCase();
  if (rest === '') return 'status';
  if (rest === 'auto' || rest === 'on') return 'auto';
  if (rest === 'off') return 'off';
  return undefined;
}

/** Runs `/ticket channel ...`: acks at once, answers privately once it has acted. */
export async function channelModeCommand(
  deps: ChannelModeDeps,
  { command, ack, respond }: Args,
): Promise<void> {
  await ack();
  deps.tasks.run('channel-mode', () => answerChannelMode(deps, command, respond), {
    user: command.user_id,
    channel: command.channel_id,
  });
}

async function answerChannelMode(
  deps: ChannelModeDeps,
  command: { user_id: string; channel_id: string; text: string },
  respond: RespondFn,
): Promise<void> {
  const { user_id: userId, channel_id: channel } = command;
  const asked = channelModeAsked(command.text);
  let answer: SlackMessage;
  try {
    answer = await decide(deps, userId, channel, asked);
  } catch (error) {
    // The agent hears that nothing changed whatever failed; only Slack or Redis failing is
    // expected, anything else is a bug and goes on to be reported.
    await respond(ephemeral(buildChannelModeFailed()));
    if (!isSlackCallError(error) && !(error instanceof StoreError)) throw error;
    deps.logger.warn({ err: error, channel }, '/ticket channel could not be answered');
    return;
  }
  await respond(ephemeral(answer));
}

async function decide(
  deps: ChannelModeDeps,
  userId: string,
  channel: string,
  asked: ChannelMode | 'status' | undefined,
): Promise<SlackMessage> {
  if (!(await deps.people.isAgent(userId))) return buildChannelModeAgentsOnly();
  if (asked === undefined) return buildChannelModeUsage();
  if (/^D/.test(channel)) return buildChannelModeNotHere('direct-message');
  if (asked === 'status') {
    const set = await deps.stores.channelModes.get(channel);
    const fallback = deps.settings.channelModes?.get(channel);
    const origin: ChannelModeOrigin = set ? 'slack' : fallback ? 'default' : 'none';
    return buildChannelModeStatus(set ?? fallback ?? 'off', origin, await deskOf(deps, channel));
  }
  // Turning it off needs no member: the app may have been removed from the channel since.
  if (asked === 'auto' && (await appIsIn(deps.client, channel)) === false)
    return buildChannelModeNotHere('not-in-channel');
  await deps.stores.channelModes.set(channel, asked);
  deps.logger.info({ channel, mode: asked, user: userId }, 'channel mode set');
  return buildChannelModeSet(asked, await deskOf(deps, channel));
}

// The channel's desk with its name; a platform that cannot be asked leaves the slug alone.
async function deskOf(deps: ChannelModeDeps, channel: string): Promise<ChannelDesk> {
  const slug = deps.settings.channelDesks.get(channel);
  if (!slug) return { slug };
  const desks = await deps.desks.list().catch((error: unknown) => {
    deps.logger.warn({ err: error }, 'desks could not be listed for /ticket channel');
    return undefined;
  });
  if (!desks) return { slug };
  const desk = desks.find((d) => d.slug === slug);
  return desk ? { slug, name: desk.name } : { slug, missing: true };
}
