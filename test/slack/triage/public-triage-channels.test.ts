/** The start-up look at the triage channels' privacy. */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { WorkspaceUnknownError } from '../../../src/slack/errors.ts';
import type { ChannelPrivacy } from '../../../src/slack/triage/channel-privacy.ts';
import { logPublicTriageChannels } from '../../../src/slack/triage/public-triage-channels.ts';
import { createMemoryStores } from '../../../src/store/index.ts';

function setUp(privacy: (channel: string) => Promise<ChannelPrivacy>) {
  const lines: { level: number; msg: string }[] = [];
  const logger = pino(
    { level: 'debug' },
    { write: (line: string) => void lines.push(JSON.parse(line)) },
  );
  const stores = createMemoryStores({
    triageDefaults: new Map([
      ['it', 'G0PRIVATE'],
      ['hr', 'C0PUBLIC'],
    ]),
  });
  return { run: () => logPublicTriageChannels({ stores, logger }, { privacy }), lines };
}

describe('the start-up look at the triage channels', () => {
  it('logs a public triage channel at error level, and is done', async () => {
    const { run, lines } = setUp(async (channel) =>
      channel === 'C0PUBLIC' ? 'public' : 'private',
    );
    expect(await run()).toBe('checked');
    expect(lines.filter((line) => line.level >= 50).map((line) => line.msg)).toEqual([
      expect.stringContaining('triage channel is public'),
    ]);
  });

  it('waits, logging nothing, while the app is installed in no workspace yet', async () => {
    const { run, lines } = setUp(async () => {
      throw new WorkspaceUnknownError(0);
    });
    expect(await run()).toBe('waiting');
    expect(lines).toEqual([]);
  });

  it('warns of a channel Slack could not tell about (429 or 500), and looks at the others', async () => {
    const asked: string[] = [];
    const { run, lines } = setUp(async (channel) => {
      asked.push(channel);
      if (channel === 'G0PRIVATE') {
        throw Object.assign(new Error('ratelimited'), { code: 'slack_webapi_rate_limited_error' });
      }
      return 'private';
    });
    expect(await run()).toBe('checked');
    expect(asked.sort()).toEqual(['C0PUBLIC', 'G0PRIVATE']);
    expect(lines.map((line) => line.level)).toEqual([40]);
  });
});
