/**
 * Logs: pino JSON unless LOG_PRETTY asks for pretty lines, and every line about a ticket names
 * the ticket, the channel and the thread, so one grep follows a request end to end.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultIds } from '../../tools/slack-double/index.ts';
import { eventually } from '../support/eventually.ts';
import { type Stack, startStack } from '../support/stack.ts';

const run = promisify(execFile);
const { alice } = defaultIds;

const LOG_ONE_LINE = [
  '--input-type=module',
  '-e',
  "import { loadConfig } from './src/config.ts'; import { createLogger } from './src/logger.ts';" +
    "const c = loadConfig(); createLogger({ pretty: c.log.pretty }).info({ ticket_id: 'IT-7' }, 'hello');",
];
const BASE_ENV = {
  PATH: process.env.PATH ?? '',
  SLACK_BOT_TOKEN: 'xoxb-1',
  SLACK_SIGNING_SECRET: 's',
  SERVICE_DESK_URL: 'http://127.0.0.1:9',
  SERVICE_DESK_API_KEY: 'k',
};

function parsed(lines: string[]): Record<string, unknown>[] {
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Alice files a ticket by DM and replies in its thread; resolves once the reply is logged. */
async function fileAndReply(current: Stack) {
  const { logs } = current;
  const dm = current.double.workspace.openIm(alice);
  const sent = await current.driver.userPosts({
    userId: alice,
    channelId: dm,
    text: 'Dock is dead',
  });
  const ticketId = await eventually(
    () => current.app.stores.links.ticketForThread(dm, sent.ts),
    5_000,
    'the link',
  );
  await current.driver.userPosts({
    userId: alice,
    channelId: dm,
    text: 'Tried another cable',
    threadTs: sent.ts,
  });
  await eventually(
    () => parsed(logs).some((l) => l.msg === 'thread reply added to ticket'),
    5_000,
    'the reply',
  );
  return { ticketId, dm, sent };
}

/** The keys of a JSON object line at its top level, in order, repeats kept. */
function topLevelKeys(line: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '"') {
      let j = i + 1;
      while (j < line.length && line[j] !== '"') j += line[j] === '\\' ? 2 : 1;
      if (depth === 1 && line[j + 1] === ':') keys.push(line.slice(i + 1, j));
      i = j;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
  }
  return keys;
}

describe('logs', () => {
  let stack: Stack | undefined;
  afterEach(async () => {
    await stack?.close();
    stack = undefined;
  });

  it('writes one JSON object per line by default', async () => {
    const { stdout } = await run(process.execPath, LOG_ONE_LINE, { env: BASE_ENV });
    expect(JSON.parse(stdout.trim())).toMatchObject({ level: 30, ticket_id: 'IT-7', msg: 'hello' });
  });

  it('writes pretty lines with LOG_PRETTY=1', async () => {
    const { stdout } = await run(process.execPath, LOG_ONE_LINE, {
      env: { ...BASE_ENV, LOG_PRETTY: '1' },
    });
    expect(stdout).toMatch(/INFO.*hello/);
    expect(stdout).toContain('ticket_id: "IT-7"');
    expect(stdout.trimStart().startsWith('{')).toBe(false);
  });

  it('names the ticket, channel and thread on every line about filing and replying', async () => {
    stack = await startStack({ logLevel: 'info' });
    const current = stack;
    const { logs } = current;
    const { ticketId, dm, sent } = await fileAndReply(current);
    const aboutTicket = parsed(logs).filter(
      (l) => l.ticket_id !== undefined || l.kind !== undefined,
    );
    expect(aboutTicket.map((l) => l.msg)).toEqual(
      expect.arrayContaining([
        'ticket filed from Slack',
        'outbox entry done',
        'thread reply added to ticket',
      ]),
    );
    for (const line of aboutTicket) {
      expect(line).toMatchObject({ ticket_id: ticketId, channel: dm, thread_ts: sent.ts });
    }
  });

  it('repeats no key within a line, so no field hides another', async () => {
    stack = await startStack({ logLevel: 'debug' });
    await fileAndReply(stack);
    expect(stack.logs.length).toBeGreaterThan(10);
    const repeated = stack.logs
      .map((line) => ({ line, keys: topLevelKeys(line) }))
      .filter(({ keys }) => new Set(keys).size !== keys.length)
      .map(
        ({ line, keys }) =>
          `${keys.filter((k, i) => keys.indexOf(k) !== i).join(',')}: ${line.slice(0, 120)}`,
      );
    expect(repeated).toEqual([]);
    expect(topLevelKeys('{"a":1,"b":{"a":2},"a":3}')).toEqual(['a', 'b', 'a']);
  });

  it('logs a refusal the person was told about at info, without a stack', async () => {
    stack = await startStack({ logLevel: 'info' });
    const current = stack;
    const { logs } = current;
    const dm = current.double.workspace.openIm(alice);
    const sent = await current.driver.userPosts({
      userId: alice,
      channelId: dm,
      text: 'VPN drops',
    });
    const ticketId = await eventually(
      () => current.app.stores.links.ticketForThread(dm, sent.ts),
      5_000,
      'the link',
    );
    current.emulator.model.updateTicket('acme', ticketId, { status: 'closed' });
    await current.driver.userPosts({
      userId: alice,
      channelId: dm,
      text: 'It drops again',
      threadTs: sent.ts,
    });
    const refused = await eventually(
      () => parsed(logs).find((l) => l.msg === 'outbox entry refused; the person is told why'),
      5_000,
      'the refusal line',
    );
    expect(refused).toMatchObject({ level: 30, kind: 'add_message', ticket_id: ticketId });
    expect(refused.err).toBeUndefined();
    expect(JSON.stringify(refused)).not.toContain('    at ');
    expect(parsed(logs).filter((l) => Number(l.level) >= 40)).toEqual([]);
  });

  it('names the channel and thread on the retry lines of a ticket not yet filed', async () => {
    stack = await startStack({ logLevel: 'info' });
    const current = stack;
    const { logs } = current;
    current.emulator.setFaults({ down: true });
    const dm = current.double.workspace.openIm(alice);
    const sent = await current.driver.userPosts({ userId: alice, channelId: dm, text: 'No Wi-Fi' });
    const retry = await eventually(
      () => parsed(logs).find((l) => l.msg === 'outbox entry will be retried'),
      5_000,
      'a retry line',
    );
    expect(retry).toMatchObject({ kind: 'create_ticket', channel: dm, thread_ts: sent.ts });
  });
});
