import { describe, expect, it } from 'vitest';
import type { CatalogItem, Desk } from '../../../../src/contract/schemas.ts';
import { DEFAULT_PANE_PROMPTS } from '../../../../src/slack/builders/pane-prompts-builder.ts';
import { assistantThreadStarted } from '../../../../src/slack/listeners/events/assistant-thread-started.ts';
import { isPaneThread } from '../../../../src/slack/threads/pane-threads.ts';
import { createMemoryStores } from '../../../../src/store/index.ts';
import { collectedTasks, fakeDeps } from '../../support/fake-deps.ts';

const started = {
  assistant_thread: { user_id: 'U0ALICE', channel_id: 'D0ALICE', thread_ts: '1767225600.000100' },
};

function setUp(options: {
  prompts?: readonly string[];
  catalog?: () => Promise<CatalogItem[]>;
  desks?: () => Promise<Desk[]>;
}) {
  const stores = createMemoryStores();
  const { tasks, running } = collectedTasks();
  const set: unknown[] = [];
  const reads = { catalog: 0, desks: 0 };
  const deps = fakeDeps({
    stores,
    settings: { panePrompts: options.prompts },
    tasks,
    reads: { payer: () => async () => undefined },
    catalog: {
      peek: () => undefined,
      get: async () => {
        reads.catalog += 1;
        return { kind: 'items' as const, items: await (options.catalog ?? (async () => []))() };
      },
    },
    desks: {
      peek: () => undefined,
      list: async () => {
        reads.desks += 1;
        return (options.desks ?? (async () => []))();
      },
    },
    client: {
      assistant: {
        threads: {
          setSuggestedPrompts: async (args: { prompts: unknown }) => {
            set.push(args.prompts);
            return { ok: true };
          },
        },
      },
    },
  });
  return { deps, stores, tasks: running, set, reads };
}

describe('opening Slack’s AI pane', () => {
  it('remembers the thread before Slack is answered, so its first message files a ticket', async () => {
    const { deps, stores } = setUp({ prompts: [] });
    await assistantThreadStarted(deps)(started);
    expect(
      await isPaneThread(stores.claims, { channel: 'D0ALICE', threadTs: '1767225600.000100' }),
    ).toBe(true);
  });

  it('offers ASSISTANT_PROMPTS as written, reading nothing from the platform', async () => {
    const { deps, tasks, set, reads } = setUp({ prompts: ['Reset my password', 'VPN help'] });
    await assistantThreadStarted(deps)(started);
    await Promise.all(tasks);
    expect(set).toEqual([
      [
        { title: 'Reset my password', message: 'Reset my password' },
        { title: 'VPN help', message: 'VPN help' },
      ],
    ]);
    expect(reads).toEqual({ catalog: 0, desks: 0 });
  });

  it('offers the built-in prompts when the platform cannot be read', async () => {
    const down = async (): Promise<never> => {
      // The platform client's connection failure, as its error code names it.
      throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'servicedesk_connection' });
    };
    const { deps, tasks, set } = setUp({ catalog: down, desks: down });
    await assistantThreadStarted(deps)(started);
    await Promise.all(tasks);
    expect(set).toEqual([DEFAULT_PANE_PROMPTS]);
  });
});
