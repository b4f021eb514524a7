import { describe, expect, it } from 'vitest';
import type { Ticket } from '../../../src/contract/schemas.ts';
import { parseServiceTargets } from '../../../src/contract/service-levels.ts';
import {
  buildQueueMessage,
  byTarget,
  homeUnassignedRoom,
  queueBlocks,
} from '../../../src/slack/builders/agent-queue-builder.ts';
import { buildAppHome } from '../../../src/slack/builders/app-home-builder.ts';
import type { AgentQueue } from '../../../src/slack/deps.ts';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const SAM = 'sam.rivera@acme.example';
const minutesAgo = (m: number) => new Date(NOW - m * 60_000).toISOString();

const ticket = (n: number, extra: Partial<Ticket> = {}): Ticket => ({
  id: `IT-${n}`,
  title: `Ticket ${n}`,
  status: 'open',
  priority: 'medium',
  desk_id: 'it',
  created_at: minutesAgo(10_000 - n),
  ...extra,
});
const many = (from: number, count: number, extra: Partial<Ticket> = {}) =>
  Array.from({ length: count }, (_, i) => ticket(from + i, extra));

const NO_CLOCKS = { targets: new Map(), warnAt: 0.8, nowMs: NOW };
const text = (value: unknown) => JSON.stringify(value);
const assignButtons = (blocks: readonly unknown[]) =>
  text(blocks).match(/"action_id":"assign_to_me:/g)?.length ?? 0;

describe('an agent’s queue', () => {
  it('keeps a Home of 200 assigned and 500 unassigned tickets within 100 blocks, the rest counted behind the dashboard', () => {
    const queue: AgentQueue = {
      assigned: many(1, 200, { assignee_email: SAM }),
      assignedMore: false,
      unassigned: many(1_000, 500),
      unassignedTotal: 500,
    };
    const home = buildAppHome({ kind: 'queue', queue, clocks: NO_CLOCKS }, 'https://desk.example');
    expect(home.blocks.length).toBeLessThanOrEqual(100);
    const all = text(home.blocks);
    expect(all).toContain('*Assigned to me* (200)');
    expect(all).toContain('*Unassigned on my desks* (500)');
    expect(all).toMatch(
      /…and \d+ more assigned to you\. <https:\/\/desk\.example\|Open in dashboard>/,
    );
    expect(all).toMatch(
      /…and \d+ more on your desks\. <https:\/\/desk\.example\|Open in dashboard>/,
    );
    expect(assignButtons(home.blocks)).toBeGreaterThanOrEqual(10);
  });

  it('fits the Home with an as-of line at 100 blocks exactly when both lists overflow', () => {
    const queue: AgentQueue = {
      assigned: many(1, 200),
      assignedMore: true,
      unassigned: many(1_000, 500),
      unassignedTotal: null,
    };
    const home = buildAppHome(
      {
        kind: 'queue',
        queue,
        clocks: NO_CLOCKS,
        asOf: { ageMs: 90_000, reason: 'budget', retryInMs: 30_000 },
      },
      undefined,
    );
    expect(home.blocks.length).toBe(100);
    expect(text(home.blocks)).toContain('*Assigned to me* (200+)');
  });

  it('reads only the unassigned tickets a Home can show beside the assigned ones', () => {
    const room = homeUnassignedRoom(200);
    const queue: AgentQueue = {
      assigned: many(1, 200),
      assignedMore: false,
      unassigned: many(1_000, room),
      unassignedTotal: 500,
    };
    const blocks = queueBlocks(queue, {
      dashboardUrl: undefined,
      clocks: NO_CLOCKS,
      maxBlocks: 94,
    });
    // Every ticket read is shown: none was read for nothing.
    expect(assignButtons(blocks)).toBe(room);
    expect(blocks.length).toBeLessThanOrEqual(94);
  });

  it('keeps `/ticket queue`’s answer within a message’s 50 blocks', () => {
    const queue: AgentQueue = {
      assigned: many(1, 200),
      assignedMore: false,
      unassigned: many(1_000, 500),
      unassignedTotal: 500,
    };
    const message = buildQueueMessage(queue, { dashboardUrl: undefined, clocks: NO_CLOCKS });
    expect(message.blocks?.length).toBeLessThanOrEqual(50);
    expect(message.text).toContain('200 assigned to you, 500 unassigned');
  });

  it('lists the oldest target first, each with its clock, and tickets without a clock after, oldest first', () => {
    const { targets } = parseServiceTargets('it:urgent=15m/4h,it:high=1h/8h');
    const tickets = [
      ticket(1, { priority: 'medium', created_at: minutesAgo(600) }), // no target: last
      ticket(2, { priority: 'high', created_at: minutesAgo(30) }), // first response due in 30 min
      ticket(3, { priority: 'urgent', created_at: minutesAgo(20) }), // breached 5 min ago
      ticket(4, { priority: 'medium', created_at: minutesAgo(900) }), // no target, older
    ];
    const clocks = { targets, warnAt: 0.8, nowMs: NOW };
    expect(byTarget(tickets, clocks).map((e) => e.ticket.id)).toEqual([
      'IT-3',
      'IT-2',
      'IT-4',
      'IT-1',
    ]);
    const blocks = queueBlocks(
      { assigned: tickets, assignedMore: false, unassigned: [], unassignedTotal: 0 },
      { dashboardUrl: undefined, clocks, maxBlocks: 94 },
    );
    const lines = blocks.map((b) => text(b));
    const urgent = lines.find((l) => l.includes('IT-3'));
    expect(urgent).toContain(':red_circle: First response breached');
    expect(lines.find((l) => l.includes('IT-2'))).toContain(':clock3: First response due');
    expect(lines.find((l) => l.includes('IT-1'))).not.toContain('due');
  });

  it('takes a platform’s own due times over SLA_TARGETS when ordering', () => {
    const tickets = [
      ticket(1, {
        first_response_due_at: new Date(NOW + 3_600_000).toISOString(),
        resolution_due_at: null,
      }),
      ticket(2, {
        first_response_due_at: new Date(NOW + 60_000).toISOString(),
        resolution_due_at: null,
      }),
    ];
    expect(byTarget(tickets, NO_CLOCKS).map((e) => e.ticket.id)).toEqual(['IT-2', 'IT-1']);
  });

  it('offers Assign to me and Open in dashboard on each unassigned ticket, Open in dashboard on each assigned one', () => {
    const queue: AgentQueue = {
      assigned: [ticket(1, { assignee_email: SAM })],
      assignedMore: false,
      unassigned: [ticket(2)],
      unassignedTotal: 1,
    };
    const blocks = queueBlocks(queue, {
      dashboardUrl: 'https://desk.example',
      clocks: NO_CLOCKS,
      maxBlocks: 94,
    });
    const actions = blocks.find((b) => b.type === 'actions');
    expect(text(actions)).toContain('"action_id":"assign_to_me:IT-2"');
    expect(text(actions)).toContain('"value":"IT-2"');
    expect(text(actions)).toContain('https://desk.example/tickets/IT-2');
    expect(text(blocks.find((b) => text(b).includes('IT-1')))).toContain('"accessory"');
  });

  it('says more may be assigned when the platform was not read to the end, without a count of none', () => {
    const blocks = queueBlocks(
      { assigned: [ticket(1)], assignedMore: true, unassigned: [], unassignedTotal: 0 },
      { dashboardUrl: undefined, clocks: NO_CLOCKS, maxBlocks: 94 },
    );
    expect(text(blocks)).toContain('*Assigned to me* (1+)');
    expect(text(blocks)).toContain('More may be assigned to you.');
    expect(text(blocks)).not.toContain('…and 0');
  });

  it('says when nothing is assigned and nothing waits', () => {
    const blocks = queueBlocks(
      { assigned: [], assignedMore: false, unassigned: [], unassignedTotal: 0 },
      { dashboardUrl: undefined, clocks: NO_CLOCKS, maxBlocks: 94 },
    );
    expect(text(blocks)).toContain('Nothing open is assigned to you.');
    expect(text(blocks)).toContain('No ticket on your desks is waiting for an agent.');
  });

  it('never lets a ticket title ping a channel', () => {
    const blocks = queueBlocks(
      {
        assigned: [],
        assignedMore: false,
        unassigned: [ticket(1, { title: '<!channel> help' })],
        unassignedTotal: 1,
      },
      { dashboardUrl: undefined, clocks: NO_CLOCKS, maxBlocks: 94 },
    );
    expect(text(blocks)).not.toContain('<!channel>');
  });
});

describe('a non-agent’s Home', () => {
  it('is the list of their own tickets as before: no queue, no Assign to me', () => {
    const home = buildAppHome({ kind: 'tickets', tickets: [ticket(1)] }, undefined);
    const all = text(home.blocks);
    expect(all).toContain('*Your open tickets* (1)');
    expect(all).not.toContain('Assigned to me');
    expect(all).not.toContain('assign_to_me');
  });
});
