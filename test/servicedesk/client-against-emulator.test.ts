/**
 * The client against the emulator over real HTTP: every client operation at least once, under
 * both addressing variants, so the route table, the schemas and the emulator agree.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  hashIdempotencyKey,
  NotFoundError,
  PermissionDeniedError,
  ServiceDeskClient,
  ValidationError,
} from '../../src/servicedesk/index.ts';
import { type RunningEmulator, startEmulator } from '../../tools/emulator/index.ts';

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe.each(['a', 'b'] as const)('client against the emulator, variant %s', (variant) => {
  let emulator: RunningEmulator;
  let client: ServiceDeskClient;

  beforeAll(async () => {
    emulator = await startEmulator({
      variant,
      aiDelayMs: 60_000,
      ratePerMinute: 10_000,
      ratePerHour: 100_000,
    });
    client = new ServiceDeskClient({ baseUrl: emulator.url, apiKey: 'sd_acme_rw', variant });
  });

  afterAll(async () => {
    await client.close();
    await emulator.close();
  });

  it('lists desks, including a subdesk', async () => {
    const desks = await client.listDesks();
    expect(desks.items.some((d) => d.parent_slug)).toBe(true);
  });

  it('creates a ticket once for one idempotency key, however often it is sent', async () => {
    const key = hashIdempotencyKey(`test:${variant}:create`);
    const input = {
      title: 'Printer jams',
      requester_email: 'ana.lima@acme.example',
      channel: 'slack',
    };
    const first = await client.createTicket(input, { idempotencyKey: key });
    const second = await client.createTicket(input, { idempotencyKey: key });
    expect(second.id).toBe(first.id);
    expect(first.status).toBe('new');
  });

  it('gets a ticket by a lower-case ID', async () => {
    const created = await client.createTicket({ title: 'Case test' });
    const fetched = await client.getTicket(created.id.toLowerCase());
    expect(fetched.id).toBe(created.id);
  });

  it('updates a ticket and sees the change in its activity', async () => {
    const created = await client.createTicket({ title: 'Needs triage' });
    const updated = await client.updateTicket(created.id, {
      status: 'in_progress',
      priority: 'high',
    });
    expect(updated).toMatchObject({ status: 'in_progress', priority: 'high' });
    const activity = await collect(client.iterateActivity(created.id));
    expect(activity.map((a) => a.type)).toEqual(
      expect.arrayContaining(['created', 'status_changed']),
    );
    const page = await client.listActivity(created.id, { limit: 1 });
    expect(page.items).toHaveLength(1);
  });

  it('updates a ticket as the person actor_email names, who its activity then shows', async () => {
    const created = await client.createTicket({ title: 'Recorded as a person' });
    await client.updateTicket(created.id, {
      priority: 'urgent',
      actor_email: 'sam.rivera@acme.example',
    });
    const activity = await collect(client.iterateActivity(created.id));
    expect(activity.find((a) => a.type === 'priority_changed')?.actor).toBe(
      'sam.rivera@acme.example',
    );
  });

  it('adds messages and lists them oldest first, with the author type decided by email', async () => {
    const created = await client.createTicket({ title: 'Chat' });
    await client.addMessage(created.id, { body: 'first', author_email: 'ana.lima@acme.example' });
    await client.addMessage(created.id, {
      body: 'second',
      author_email: 'sam.rivera@acme.example',
    });
    const messages = await collect(client.iterateMessages(created.id));
    expect(messages.map((m) => [m.body, m.author.type])).toEqual([
      ['first', 'requester'],
      ['second', 'agent'],
    ]);
    expect((await client.listMessages(created.id, { page: 1, page_size: 1 })).items).toHaveLength(
      1,
    );
  });

  it('pages through tickets with a filter', async () => {
    const page = await client.listTickets({ desk_id: 'it', page: 1, page_size: 5 });
    expect(page.items.every((t) => t.desk_id === 'it')).toBe(true);
    const all = await collect(
      client.iterateTickets({ desk_id: 'it' }, { pageSize: 3, maxItems: 7 }),
    );
    expect(all.length).toBeLessThanOrEqual(7);
  });

  it('lists employees, assets (without a total), applications, catalog items and requests', async () => {
    const employees = await collect(client.iterateEmployees({}, { pageSize: 7 }));
    expect(employees.length).toBeGreaterThanOrEqual(15);
    const assets = await client.listAssets({ limit: 5, with_total: false });
    expect(assets.total_count).toBeNull();
    expect((await collect(client.iterateAssets({}, { maxItems: 3 }))).length).toBe(3);
    expect((await client.listApplications()).items.length).toBeGreaterThan(0);
    expect((await collect(client.iterateApplications())).length).toBeGreaterThan(0);
    expect((await client.listCatalogItems()).items.length).toBeGreaterThan(0);
    expect((await collect(client.iterateCatalogItems())).length).toBeGreaterThan(0);
    const requests = await client.listRequests({ page: 1, page_size: 5 });
    expect(Array.isArray(requests.items)).toBe(true);
    await collect(client.iterateRequests({ maxItems: 10 }));
  });

  it('lists a desk’s custom fields and gets a 422 located at a missing required one', async () => {
    const fields = await client.listCustomFields({ desk_id: 'hr' });
    expect(fields.items.map((field) => [field.key, field.required])).toEqual([
      ['start_date', true],
      ['manager_email', true],
    ]);
    const error = await client
      .createTicket({
        title: 'Onboarding',
        desk_id: 'hr',
        custom_fields: { start_date: '2026-12-01' },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues[0]?.loc).toEqual([
      'body',
      'custom_fields',
      'manager_email',
    ]);
  });

  it('maps a missing title to a 422 on the title field', async () => {
    const error = await client.createTicket({ title: '' } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).fieldErrors()).toHaveProperty('title');
  });

  it('answers 404 for another tenant’s ticket', async () => {
    const globex = new ServiceDeskClient({
      baseUrl: emulator.url,
      apiKey: 'sd_globex_rw',
      variant,
    });
    const acmeTicket = await client.createTicket({ title: 'Private' });
    await expect(globex.getTicket(acmeTicket.id)).rejects.toBeInstanceOf(NotFoundError);
    await globex.close();
  });

  it('answers 403 to a write with a Read key', async () => {
    const reader = new ServiceDeskClient({ baseUrl: emulator.url, apiKey: 'sd_acme_ro', variant });
    await expect(reader.createTicket({ title: 'Nope' })).rejects.toBeInstanceOf(
      PermissionDeniedError,
    );
    await reader.close();
  });

  it('exposes the rate-limit state of the last response', async () => {
    await client.listDesks();
    expect(client.rateLimit?.limit).toBeGreaterThan(0);
    expect(client.rateLimit?.remaining).toBeGreaterThanOrEqual(0);
  });
});
