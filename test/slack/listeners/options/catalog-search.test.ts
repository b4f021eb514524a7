/** The catalog select's options: from the kept catalog, and never past Slack's 3 seconds. */
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { CatalogItem } from '../../../../src/contract/schemas.ts';
import { ServerError } from '../../../../src/servicedesk/index.ts';
import type { Catalog, CatalogRead } from '../../../../src/slack/deps.ts';
import { catalogSearch } from '../../../../src/slack/listeners/options/catalog-search.ts';
import { ServiceCatalog } from '../../../../src/slack/tickets/service-catalog.ts';

const laptop: CatalogItem = {
  id: 'cat_001',
  name: 'New laptop',
  description: 'A standard laptop with the company image.',
  desk_id: 'it-hardware',
};

type Answer = { options: { text: { type: string; text: string }; value: string }[] };

async function search(catalog: Catalog, value: string): Promise<Answer> {
  let answer: unknown;
  await catalogSearch({ catalog, logger: pino({ level: 'silent' }) })({
    ack: async (body: unknown) => {
      answer = body;
    },
    payload: { type: 'block_suggestion', value },
  } as never);
  return answer as Answer;
}

const kept = (read: CatalogRead): Catalog => ({
  peek: () => read,
  get: async () => read,
  within: async () => read,
});

describe('catalog search', () => {
  it('answers the matching items as options, the item’s desk and id in the value', async () => {
    const answer = await search(kept({ kind: 'items', items: [laptop] }), 'lap');
    expect(answer).toEqual({
      options: [
        {
          text: { type: 'plain_text', text: 'New laptop', emoji: true },
          value: 'it-hardware|cat_001',
        },
      ],
    });
  });

  it('cuts an item’s name to Slack’s 75 characters in its option', async () => {
    const long = { ...laptop, name: `Laptop ${'x'.repeat(100)}` };
    const answer = await search(kept({ kind: 'items', items: [long] }), 'laptop');
    expect(answer.options[0]?.text.text.length).toBeLessThanOrEqual(75);
  });

  it('answers at most 100 options', async () => {
    const many = Array.from({ length: 150 }, (_, i) => ({ ...laptop, id: `cat_${i}` }));
    const answer = await search(kept({ kind: 'items', items: many }), '');
    expect(answer.options).toHaveLength(100);
  });

  it('asks to type again when the first load takes longer than it may wait', async () => {
    const never = new ServiceCatalog({
      client: {
        iterateCatalogItems: () => ({
          [Symbol.asyncIterator]: () => ({ next: () => new Promise(() => {}) }),
        }),
      },
    });
    const started = Date.now();
    const answer = await search(never, 'lap');
    expect(Date.now() - started).toBeLessThan(2_500);
    expect(answer.options.map((o) => [o.text.text, o.value])).toEqual([
      ['Loading the catalog… type again in a moment', 'none'],
    ]);
  });

  it('says the catalog cannot be loaded when the platform fails', async () => {
    const failing: Catalog = {
      peek: () => undefined,
      get: () => Promise.reject(new Error('unused')),
      within: () =>
        Promise.reject(
          new ServerError({
            operation: 'listCatalogItems',
            method: 'GET',
            path: '/api/v1/catalog-items/',
            status: 503,
            headers: {},
            body: {},
          }),
        ),
    };
    const answer = await search(failing, 'lap');
    expect(answer.options[0]?.text.text).toContain('cannot be loaded now');
  });

  it('says the service desk has no catalog on a platform without one', async () => {
    const answer = await search(kept({ kind: 'absent' }), 'lap');
    expect(answer.options[0]?.text.text).toContain('no catalog');
  });

  it('rethrows what is not the platform’s failure', async () => {
    const broken: Catalog = {
      ...kept({ kind: 'absent' }),
      within: () => Promise.reject(new TypeError('bug')),
    };
    await expect(search(broken, 'lap')).rejects.toBeInstanceOf(TypeError);
  });
});
