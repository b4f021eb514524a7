import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import {
  type AssistantThreads,
  firstPaneMessage,
  isPaneThread,
  rememberPaneThread,
  showPaneStatus,
  suggestPanePrompts,
  titlePane,
} from '../../../src/slack/threads/pane-threads.ts';
import { createMemoryStores } from '../../../src/store/index.ts';

const thread = { channel: 'D0ALICE', threadTs: '1767225600.000100' };

// A Slack Web API failure as the WebClient throws it.
const slackFailure = (error: string) =>
  Object.assign(new Error(`An API error occurred: ${error}`), {
    code: 'slack_webapi_platform_error',
    data: { ok: false, error },
  });

function client(fail: unknown): AssistantThreads & { calls: string[] } {
  const calls: string[] = [];
  const call = (name: string) => async () => {
    calls.push(name);
    if (fail) throw fail;
    return { ok: true };
  };
  return {
    calls,
    assistant: {
      threads: {
        setStatus: call('setStatus'),
        setTitle: call('setTitle'),
        setSuggestedPrompts: call('setSuggestedPrompts'),
      },
    },
  };
}

describe('pane conversations', () => {
  it('knows a thread as a pane conversation once it was heard open, and no other', async () => {
    const { claims } = createMemoryStores();
    await rememberPaneThread(claims, thread, 'U0ALICE');
    await rememberPaneThread(claims, thread, 'U0ALICE');
    expect(await isPaneThread(claims, thread)).toBe(true);
    expect(await isPaneThread(claims, { ...thread, threadTs: '1767225600.000200' })).toBe(false);
  });

  it('names one first message, whichever delivery asks, however often', async () => {
    const { claims } = createMemoryStores();
    const [a, b] = await Promise.all([
      firstPaneMessage(claims, thread, '1767225601.000100'),
      firstPaneMessage(claims, thread, '1767225602.000100'),
    ]);
    expect(a).toBe(b);
    expect(await firstPaneMessage(claims, thread, '1767225601.000100')).toBe(a);
    expect(await firstPaneMessage(claims, thread, '1767225603.000100')).toBe(a);
  });

  it('drops a look Slack refused, with a log, and goes on', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
    const refusing = client(slackFailure('ratelimited'));
    const deps = { client: refusing, logger };
    expect(await showPaneStatus(deps, thread)).toBe(false);
    expect(await titlePane(deps, thread, 'VPN down')).toBe(false);
    expect(await suggestPanePrompts(deps, thread, [{ title: 'a', message: 'b' }])).toBe(false);
    expect(refusing.calls).toEqual(['setStatus', 'setTitle', 'setSuggestedPrompts']);
    expect(lines.filter((line) => line.includes('was not set'))).toHaveLength(3);
  });

  it('rethrows what is not Slack refusing: a bug is never swallowed as looks', async () => {
    const deps = { client: client(new TypeError('boom')), logger: pino({ level: 'silent' }) };
    await expect(showPaneStatus(deps, thread)).rejects.toThrow(TypeError);
  });

  it('offers no prompts when there are none to offer, without calling Slack', async () => {
    const quiet = client(undefined);
    expect(
      await suggestPanePrompts({ client: quiet, logger: pino({ level: 'silent' }) }, thread, []),
    ).toBe(false);
    expect(quiet.calls).toEqual([]);
  });
});
