/**
 * `assistant.threads.*`: what the app shows in Slack's AI pane (a status while it works, the
 * conversation's title, suggested prompts). Slack's vendored description predates them, so
 * their arguments come from the installed `@slack/web-api` types
 * (`dist/types/request/assistant.d.ts`) and Slack's method pages; each call is refused as Slack
 * would: a missing channel_id or thread_ts, a thread that is no pane conversation
 * (`invalid_thread_ts`), more than four prompts, a prompt without its title or message.
 */
import type { Workspace } from '../workspace.ts';
import { type ApiArgs, type ApiMethod, fail, jsonArg, missingArgument, ok } from './args.ts';
import { accessChannel } from './channel-access.ts';
import type { MethodDescription } from './method-description.ts';

/** Slack shows at most four suggested prompts. */
export const MAX_SUGGESTED_PROMPTS = 4;
// Slack rotates through at most ten loading messages.
const MAX_LOADING_MESSAGES = 10;

const invalid = (message: string) => fail('invalid_arguments', [`[ERROR] ${message}`]);

// The pane's conversation the call names, or Slack's refusal.
function paneThread(
  workspace: Workspace,
  args: ApiArgs,
): { channel: string; threadTs: string } | { failure: ReturnType<typeof fail> } {
  const channelId = typeof args.channel_id === 'string' ? args.channel_id : undefined;
  if (!channelId) return { failure: missingArgument('channel_id') };
  const threadTs = typeof args.thread_ts === 'string' ? args.thread_ts : undefined;
  if (!threadTs) return { failure: missingArgument('thread_ts') };
  const access = accessChannel(workspace, channelId, 'write');
  if ('failure' in access) return { failure: access.failure };
  if (!workspace.assistantThread(access.conversation.id, threadTs))
    return { failure: fail('invalid_thread_ts') };
  return { channel: access.conversation.id, threadTs };
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === 'string')
    ? value
    : undefined;
}

const setStatus: ApiMethod = (workspace, args) => {
  const thread = paneThread(workspace, args);
  if ('failure' in thread) return thread.failure;
  // '' is allowed: it clears the status.
  if (typeof args.status !== 'string') return missingArgument('status');
  const loading = jsonArg(args, 'loading_messages');
  if (loading.present) {
    const messages = loading.invalid ? undefined : stringList(loading.value);
    if (!messages || messages.length > MAX_LOADING_MESSAGES)
      return invalid(`loading_messages must be a list of up to ${MAX_LOADING_MESSAGES} strings`);
  }
  workspace.changeAssistantThread(thread.channel, thread.threadTs, { status: args.status });
  return ok();
};

const setTitle: ApiMethod = (workspace, args) => {
  const thread = paneThread(workspace, args);
  if ('failure' in thread) return thread.failure;
  if (typeof args.title !== 'string' || args.title.trim() === '') return missingArgument('title');
  workspace.changeAssistantThread(thread.channel, thread.threadTs, { title: args.title });
  return ok();
};

const setSuggestedPrompts: ApiMethod = (workspace, args) => {
  const thread = paneThread(workspace, args);
  if ('failure' in thread) return thread.failure;
  const raw = jsonArg(args, 'prompts');
  if (!raw.present) return missingArgument('prompts');
  const list = raw.invalid ? undefined : raw.value;
  if (!Array.isArray(list) || list.length === 0)
    return invalid('prompts must be a list of { title, message }');
  if (list.length > MAX_SUGGESTED_PROMPTS)
    return invalid(`prompts takes at most ${MAX_SUGGESTED_PROMPTS} prompts, not ${list.length}`);
  const prompts: { title: string; message: string }[] = [];
  for (const [index, prompt] of list.entries()) {
    const { title, message } = (prompt ?? {}) as { title?: unknown; message?: unknown };
    if (typeof title !== 'string' || title === '' || typeof message !== 'string' || message === '')
      return invalid(`prompts[${index}] must have a title and a message`);
    prompts.push({ title, message });
  }
  const title = typeof args.title === 'string' && args.title !== '' ? args.title : undefined;
  workspace.changeAssistantThread(thread.channel, thread.threadTs, {
    prompts,
    promptsTitle: title,
  });
  return ok();
};

/** The `assistant.threads.*` methods the double implements. */
export const assistantMethods: Record<string, ApiMethod> = {
  'assistant.threads.setStatus': setStatus,
  'assistant.threads.setTitle': setTitle,
  'assistant.threads.setSuggestedPrompts': setSuggestedPrompts,
};

const docs = (method: string) => `https://docs.slack.dev/reference/methods/${method}`;

/**
 * Their descriptions, as the installed `@slack/web-api` types give them (Slack's vendored
 * description predates the AI pane, 2024). `status` may be '' (a clear), so the method checks it.
 */
export const ASSISTANT_METHOD_DESCRIPTIONS: Readonly<
  Record<string, MethodDescription & { why: string }>
> = {
  'assistant.threads.setStatus': {
    why: "Slack's AI pane (2024): the status under a conversation while the app works",
    params: new Set([
      'token',
      'channel_id',
      'thread_ts',
      'status',
      'loading_messages',
      'icon_emoji',
      'icon_url',
      'username',
    ]),
    required: new Set(['token', 'channel_id', 'thread_ts']),
    docs: docs('assistant.threads.setStatus'),
  },
  'assistant.threads.setTitle': {
    why: "Slack's AI pane (2024): a conversation's title in the pane's History",
    params: new Set(['token', 'channel_id', 'thread_ts', 'title']),
    required: new Set(['token', 'channel_id', 'thread_ts', 'title']),
    docs: docs('assistant.threads.setTitle'),
  },
  'assistant.threads.setSuggestedPrompts': {
    why: "Slack's AI pane (2024): up to four prompts offered in a new conversation",
    params: new Set(['token', 'channel_id', 'thread_ts', 'prompts', 'title']),
    required: new Set(['token', 'channel_id', 'thread_ts', 'prompts']),
    docs: docs('assistant.threads.setSuggestedPrompts'),
  },
};
