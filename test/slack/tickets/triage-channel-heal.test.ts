/** Noticing an emptied store and bringing the triage channels back from their records. */
import { describe, expect, it } from 'vitest';
import { WorkspaceUnknownError } from '../../../src/slack/errors.ts';
import {
  TRIAGE_KEPT_KEY,
  TriageChannelHeal,
} from '../../../src/slack/tickets/triage-channel-heal.ts';
import type { TriageChannelRecord } from '../../../src/slack/tickets/triage-channel-records.ts';
import { createMemoryStores } from '../../../src/store/index.ts';

const silent = { info: () => undefined, warn: () => undefined };

function rateLimited(retryAfterSec: number) {
  return Object.assign(new Error('A rate limit was exceeded'), {
    code: 'slack_webapi_rate_limited_error',
    retryAfter: retryAfterSec,
  });
}

function setup(
  found:
    | TriageChannelRecord[]
    | ((signal: AbortSignal | undefined) => Promise<TriageChannelRecord[]>),
  stores = createMemoryStores(),
) {
  let now = 1_000_000;
  const reads: number[] = [];
  const pinned: string[] = [];
  const reported: unknown[] = [];
  const heal = new TriageChannelHeal({
    records: {
      async readAll(signal) {
        reads.push(now);
        return typeof found === 'function' ? found(signal) : found;
      },
      async remember(channel, record) {
        pinned.push(`${record.desk} ${channel}`);
      },
    },
    stores,
    logger: silent,
    report: (error) => reported.push(error),
    now: () => now,
  });
  return { heal, stores, reads, pinned, reported, advance: (ms: number) => (now += ms) };
}

const record = (desk: string, channel: string, setAt: number): TriageChannelRecord => ({
  desk,
  channel,
  setAt,
  ts: `${setAt}.1`,
});

describe('bringing triage channels back after the store was emptied', () => {
  it('restores each desk to the channel of its newest record, once, and then reads the sentinel alone', async () => {
    const { heal, stores, reads } = setup([
      record('it', 'G0OLD', 1),
      record('it', 'G0NEW', 2),
      record('*', 'G0CATCH', 1),
    ]);
    expect(await heal.check()).toBe('healed');
    expect(await stores.triageChannels.channelFor('it')).toBe('G0NEW');
    expect(await stores.triageChannels.channelFor('hr')).toBe('G0CATCH');
    expect(await heal.check()).toBe('kept');
    expect(reads).toHaveLength(1);
  });

  it('keeps what was set in Slack since the store was emptied over an older record', async () => {
    const stores = createMemoryStores();
    await stores.triageChannels.set('it', 'G0SINCE');
    const { heal } = setup([record('it', 'G0OLD', 1)], stores);
    await heal.check();
    expect(await stores.triageChannels.channelFor('it')).toBe('G0SINCE');
  });

  it('pins a record for a channel stored without one, as one set before records existed', async () => {
    const stores = createMemoryStores();
    await stores.triageChannels.set('hr', 'G0PEOPLE');
    const { heal, pinned } = setup([record('it', 'G0IT', 1)], stores);
    await heal.check();
    expect(pinned).toEqual(['hr G0PEOPLE']);
  });

  it('leaves the sentinel unwritten when Slack limits it, and tries again once Retry-After has passed', async () => {
    let calls = 0;
    const { heal, stores, advance } = setup(async () => {
      calls++;
      if (calls === 1) throw rateLimited(30);
      return [record('it', 'G0IT', 1)];
    });
    expect(await heal.check()).toBe('failed');
    expect(await stores.claims.get(TRIAGE_KEPT_KEY)).toBeUndefined();
    advance(10_000);
    expect(await heal.check()).toBe('waiting');
    advance(20_000);
    expect(await heal.check()).toBe('healed');
    expect(await stores.triageChannels.channelFor('it')).toBe('G0IT');
  });

  it('lets one replica read Slack while another finds the work taken', async () => {
    const stores = createMemoryStores();
    let release: () => void = () => undefined;
    const first = setup(
      () =>
        new Promise((resolve) => {
          release = () => resolve([]);
        }),
      stores,
    );
    const second = setup([], stores);
    const healing = first.heal.check();
    await new Promise((resolve) => setImmediate(resolve));
    expect(await second.heal.check()).toBe('busy');
    release();
    expect(await healing).toBe('healed');
    expect(second.reads).toHaveLength(0);
  });

  it('rethrows what is not a Slack failure, and gives the work back', async () => {
    const { heal, stores } = setup(async () => {
      throw new TypeError('a bug');
    });
    await expect(heal.check()).rejects.toThrow('a bug');
    expect((await stores.claims.claim(TRIAGE_KEPT_KEY, 1_000)).state).toBe('claimed');
  });

  it('waits while the app is installed in no workspace yet, without reporting it, and heals after an install', async () => {
    let installed = false;
    const { heal, stores, reads, reported } = setup(async () => {
      if (!installed) throw new WorkspaceUnknownError(0);
      return [record('it', 'G0IT', 1)];
    });
    expect(await heal.check()).toBe('waiting');
    expect(await heal.check()).toBe('waiting');
    expect(reported).toEqual([]);
    installed = true;
    expect(await heal.check()).toBe('healed');
    expect(reads).toHaveLength(3);
    expect(await stores.triageChannels.channelFor('it')).toBe('G0IT');
  });

  it('reports a workspace it cannot tell among several, as the bug it is', async () => {
    const { heal } = setup(async () => {
      throw new WorkspaceUnknownError(2);
    });
    await expect(heal.check()).rejects.toMatchObject({ code: 'slack_workspace_unknown' });
  });

  it('stops a read under way when the app stops, and gives the work back', async () => {
    const { heal, stores } = setup(
      (signal) =>
        new Promise((_resolve, reject) => {
          signal?.addEventListener('abort', () => reject(new Error('aborted')));
        }),
    );
    const checking = heal.check();
    await new Promise((resolve) => setImmediate(resolve));
    await heal.stop();
    expect(await checking).toBe('stopped');
    expect((await stores.claims.claim(TRIAGE_KEPT_KEY, 1_000)).state).toBe('claimed');
  });

  it('asks Slack again only an hour later after it refused for good, as for a missing scope', async () => {
    let calls = 0;
    const { heal, advance } = setup(async () => {
      calls++;
      if (calls === 1)
        throw Object.assign(new Error('An API error occurred: missing_scope'), {
          code: 'slack_webapi_platform_error',
          data: { ok: false, error: 'missing_scope' },
        });
      return [];
    });
    expect(await heal.check()).toBe('failed');
    advance(59 * 60_000);
    expect(await heal.check()).toBe('waiting');
    advance(60_000);
    expect(await heal.check()).toBe('healed');
  });
});
