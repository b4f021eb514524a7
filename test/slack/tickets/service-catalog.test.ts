import { describe, expect, it } from 'vitest';
import type { CatalogItem } from '../../../src/contract/schemas.ts';
import { NotFoundError, ServerError } from '../../../src/servicedesk/index.ts';
import {
  bestCatalogMatch,
  SERVICE_CATALOG_RETRY_MS,
  SERVICE_CATALOG_TTL_MS,
  ServiceCatalog,
  searchCatalog,
} from '../../../src/slack/tickets/service-catalog.ts';

const item = (id: string, name: string, description = '', desk = 'it'): CatalogItem => ({
  id,
  name,
  description,
  desk_id: desk,
});

const ITEMS = [
  item('cat_1', 'New laptop', 'A standard laptop with the company image.', 'it-hardware'),
  item('cat_2', 'Extra monitor', 'A 27" monitor for your desk or home office.', 'it-hardware'),
  item('cat_3', 'Docking station', 'Connects your laptop to a monitor and keyboard.'),
  item('cat_4', 'VPN access', 'Remote access to the company network.', 'it-access'),
  item('cat_5', 'New starter onboarding', 'Accounts and a desk for a new colleague.', 'hr'),
];

const apiInit = (status: number) => ({
  operation: 'listCatalogItems' as const,
  method: 'GET',
  path: '/api/v1/catalog-items/',
  status,
  headers: {},
  body: { detail: 'x' },
});

/** A platform whose answers the test releases one by one, counting requests. */
function platform() {
  let requests = 0;
  const answers: Array<(result: CatalogItem[] | Error) => void> = [];
  const client = {
    iterateCatalogItems(): AsyncIterable<CatalogItem> {
      requests += 1;
      const answer = new Promise<CatalogItem[]>((resolve, reject) => {
        answers.push((result) => (result instanceof Error ? reject(result) : resolve(result)));
      });
      return (async function* () {
        yield* await answer;
      })();
    },
  };
  const answer = (result: CatalogItem[] | Error) => {
    const next = answers.shift();
    if (!next) throw new Error('no request is waiting');
    next(result);
  };
  return { client, requests: () => requests, answer };
}

function catalog(p: ReturnType<typeof platform>, clock: { now: number }, errors: unknown[] = []) {
  return new ServiceCatalog({
    client: p.client,
    now: () => clock.now,
    onRefreshError: (error) => errors.push(error),
  });
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('ServiceCatalog', () => {
  it('asks once however many searches wait on the first load at the same time', async () => {
    const p = platform();
    const c = catalog(p, { now: 0 });
    const waiting = Promise.all([c.get(), c.get(), c.within(2_000)]);
    await flush();
    p.answer(ITEMS);
    const [a, b, d] = await waiting;
    expect(p.requests()).toBe(1);
    expect(a).toEqual({ kind: 'items', items: ITEMS });
    expect(b).toBe(a);
    expect(d).toBe(a);
  });

  it('asks at most once an hour', async () => {
    const p = platform();
    const clock = { now: 0 };
    const c = catalog(p, clock);
    const first = c.get();
    await flush();
    p.answer(ITEMS);
    await first;
    clock.now = SERVICE_CATALOG_TTL_MS - 1;
    await c.get();
    c.peek();
    expect(p.requests()).toBe(1);
  });

  it('gives the stale copy at once past the hour and refreshes it behind', async () => {
    const p = platform();
    const clock = { now: 0 };
    const c = catalog(p, clock);
    const first = c.get();
    await flush();
    p.answer(ITEMS);
    await first;
    clock.now = SERVICE_CATALOG_TTL_MS;
    expect(await c.get()).toEqual({ kind: 'items', items: ITEMS });
    expect(p.requests()).toBe(2);
    await flush();
    p.answer(ITEMS.slice(0, 1));
    await flush();
    expect(c.peek()).toEqual({ kind: 'items', items: ITEMS.slice(0, 1) });
  });

  it('keeps serving the stale copy when its refresh fails, and waits before asking again', async () => {
    const p = platform();
    const clock = { now: 0 };
    const errors: unknown[] = [];
    const c = catalog(p, clock, errors);
    const first = c.get();
    await flush();
    p.answer(ITEMS);
    await first;
    clock.now = SERVICE_CATALOG_TTL_MS;
    c.peek();
    await flush();
    p.answer(new ServerError(apiInit(503)));
    await flush();
    expect(errors).toHaveLength(1);
    clock.now += SERVICE_CATALOG_RETRY_MS - 1;
    expect(c.peek()).toEqual({ kind: 'items', items: ITEMS });
    expect(p.requests()).toBe(2);
  });

  it('reads a platform without a service catalog (404) as absent', async () => {
    const p = platform();
    const c = catalog(p, { now: 0 });
    const read = c.get();
    await flush();
    p.answer(new NotFoundError(apiInit(404)));
    expect(await read).toEqual({ kind: 'absent' });
  });

  it('gives a failed first load’s error to every caller until it may ask again', async () => {
    const p = platform();
    const clock = { now: 0 };
    const c = catalog(p, clock);
    const read = c.get();
    await flush();
    p.answer(new ServerError(apiInit(500)));
    await expect(read).rejects.toBeInstanceOf(ServerError);
    await expect(c.get()).rejects.toBeInstanceOf(ServerError);
    expect(p.requests()).toBe(1);
    clock.now = SERVICE_CATALOG_RETRY_MS;
    const again = c.get();
    await flush();
    p.answer(ITEMS);
    expect(await again).toEqual({ kind: 'items', items: ITEMS });
  });

  it('answers loading when the first load takes longer than the wait, and serves it once it lands', async () => {
    const p = platform();
    const c = catalog(p, { now: 0 });
    expect(await c.within(20)).toBe('loading');
    p.answer(ITEMS);
    await flush();
    expect(await c.within(20)).toEqual({ kind: 'items', items: ITEMS });
    expect(p.requests()).toBe(1);
  });

  it('keeps at most its maximum of items and says it cut the rest', async () => {
    const p = platform();
    const cut: number[] = [];
    const c = new ServiceCatalog({
      client: p.client,
      maxItems: 2,
      onTruncated: (n) => cut.push(n),
    });
    const read = c.get();
    await flush();
    p.answer(ITEMS);
    expect(await read).toEqual({ kind: 'items', items: ITEMS.slice(0, 2) });
    expect(cut).toEqual([2]);
  });
});

describe('searchCatalog', () => {
  const names = (query: string) => searchCatalog(ITEMS, query).map((i) => i.name);

  it('finds an item by a word of its name as it is being typed', () => {
    expect(names('lap')).toEqual(['New laptop', 'Docking station']);
  });

  it('ranks a name match above a description match', () => {
    expect(names('monitor')).toEqual(['Extra monitor', 'Docking station']);
  });

  it('finds an item by a word only its description has', () => {
    expect(names('network')).toEqual(['VPN access']);
  });

  it('ranks items matching more of the words first', () => {
    expect(names('new laptop')[0]).toBe('New laptop');
  });

  it('finds the singular when the plural is asked for', () => {
    expect(names('laptops')[0]).toBe('New laptop');
  });

  it('ignores case, accents and punctuation', () => {
    expect(names('VPN-Accèss!')[0]).toBe('VPN access');
  });

  it('lists every item by name when nothing is typed', () => {
    expect(names('  ')).toEqual([
      'Docking station',
      'Extra monitor',
      'New laptop',
      'New starter onboarding',
      'VPN access',
    ]);
  });

  it('answers at most 100 items, Slack’s limit', () => {
    const many = Array.from({ length: 250 }, (_, i) => item(`c${i}`, `Laptop ${i}`));
    expect(searchCatalog(many, 'laptop')).toHaveLength(100);
  });

  it('finds nothing for words no item has', () => {
    expect(names('yacht')).toEqual([]);
  });
});

describe('bestCatalogMatch', () => {
  it('picks the item best matching the words, ignoring words no item has', () => {
    expect(bestCatalogMatch(ITEMS, 'a new laptop please')?.id).toBe('cat_1');
  });

  it('picks nothing without words', () => {
    expect(bestCatalogMatch(ITEMS, '')).toBeUndefined();
  });
});
