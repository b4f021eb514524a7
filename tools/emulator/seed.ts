/**
 * Seeds: what a fresh emulator holds.
 *
 * - `demo` (deterministic given the clock): acme with desks and a subdesk, 20 employees (four
 *   agents), assets, applications (some discovered), a service catalog, a knowledge base, and
 *   18 tickets in every status with conversations and activity; globex with a small set of its
 *   own. Ticket histories are written through the model's own methods at past times, so their
 *   activity is what the API would have produced.
 * - `empty` (chosen): every tenant with its desks, routing and knowledge base (the platform's
 *   configuration) but no people, assets, applications, catalog items or tickets.
 *
 * Desk custom fields are configuration too: every tenant gets the standard ones of the desks it
 * has (`STANDARD_CUSTOM_FIELDS`).
 *
 * Tenants named in the keys but unknown to the demo get the standard desks and an ID prefix
 * made from their name.
 */
import type { CreateTicketInput, UpdateTicketInput } from '../../src/contract/schemas.ts';
import type { EmulatorModel, TenantSetup } from './model.ts';
import {
  ACME_APPLICATIONS,
  ACME_ASSETS,
  ACME_CATALOG,
  ACME_EMPLOYEES,
  emailOf,
  GLOBEX_DESKS,
  GLOBEX_EMPLOYEES,
  GLOBEX_ROUTING,
  STANDARD_CUSTOM_FIELDS,
  STANDARD_DESKS,
  STANDARD_ROUTING,
  standardKnowledgeBase,
} from './seed-data.ts';

/** Which seed to load. */
export type SeedKind = 'demo' | 'empty';

/** Seed kinds, for CLI validation. */
export const SEED_KINDS: readonly SeedKind[] = ['demo', 'empty'];

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** Adds every tenant and, for `demo`, their data. Demo history ends before the model's now. */
export function applySeed(model: EmulatorModel, kind: SeedKind, tenants: readonly string[]): void {
  for (const tenant of new Set(tenants)) {
    model.addTenant(kind === 'demo' ? demoSetup(tenant) : configurationOnly(tenant));
  }
  if (kind !== 'demo') return;
  const now = model.now();
  if (model.hasTenant('acme')) writeStories(model, 'acme', now, acmeStories());
  if (model.hasTenant('globex')) writeStories(model, 'globex', now, globexStories());
}

/** The ticket ID prefix of a tenant: acme `IT`, globex `GX`, others from their name. */
export function ticketPrefix(tenant: string): string {
  if (tenant === 'acme') return 'IT';
  if (tenant === 'globex') return 'GX';
  const letters = tenant.toUpperCase().replace(/[^A-Z0-9]/g, '');
  return letters.slice(0, 4) || 'T';
}

function configurationOnly(tenant: string): TenantSetup {
  const base =
    tenant === 'globex'
      ? { desks: GLOBEX_DESKS, routing: GLOBEX_ROUTING }
      : { desks: STANDARD_DESKS, routing: STANDARD_ROUTING };
  return {
    name: tenant,
    ticketPrefix: ticketPrefix(tenant),
    desks: base.desks.map((desk) => ({ ...desk })),
    customFields: STANDARD_CUSTOM_FIELDS.filter((field) =>
      base.desks.some((desk) => desk.slug === field.desk_id),
    ).map((field) => structuredClone(field)),
    routing: base.routing.map((route) => ({ ...route, keywords: [...route.keywords] })),
    knowledgeBase: standardKnowledgeBase(`help.${tenant}.example`),
  };
}

function demoSetup(tenant: string): TenantSetup {
  const setup = configurationOnly(tenant);
  if (tenant === 'acme') {
    return {
      ...setup,
      employees: ACME_EMPLOYEES.map((employee) => ({ ...employee })),
      assets: ACME_ASSETS.map((asset) => ({ ...asset })),
      applications: ACME_APPLICATIONS.map((app) => ({ ...app })),
      catalogItems: ACME_CATALOG.map((item) => ({ ...item })),
    };
  }
  if (tenant === 'globex')
    return { ...setup, employees: GLOBEX_EMPLOYEES.map((employee) => ({ ...employee })) };
  return setup;
}

// --- ticket histories --------------------------------------------------------------------------

type Step =
  | { kind: 'say'; at: number; who: string; body: string; internal: boolean }
  | { kind: 'ai'; at: number; body: string; articles: string[] }
  | { kind: 'set'; at: number; by: string; change: UpdateTicketInput };

interface Story {
  daysAgo: number;
  ticket: CreateTicketInput;
  /** Steps, `at` in minutes after the ticket was created. */
  steps: Step[];
  /** The AI conversation (List requests) this ticket produced, if any. */
  conversation?: { status: string; summary: string };
}

const say = (at: number, who: string, body: string, internal = false): Step => ({
  kind: 'say',
  at,
  who,
  body,
  internal,
});
const ai = (at: number, body: string, articles: string[] = []): Step => ({
  kind: 'ai',
  at,
  body,
  articles,
});
const set = (at: number, by: string, change: UpdateTicketInput): Step => ({
  kind: 'set',
  at,
  by,
  change,
});

function writeStories(model: EmulatorModel, tenant: string, now: number, stories: Story[]): void {
  // Oldest first, so ticket numbers grow with creation time as on a real tenant.
  const ordered = [...stories].sort((a, b) => b.daysAgo - a.daysAgo);
  const articles = new Map(model.knowledgeBase(tenant).map((article) => [article.id, article]));
  for (const story of ordered) {
    const start = now - story.daysAgo * DAY_MS;
    const ticket = model.atTime(start, () => model.createTicket(tenant, story.ticket));
    for (const step of story.steps) {
      model.atTime(start + step.at * MINUTE_MS, () => {
        if (step.kind === 'say') {
          model.addMessage(tenant, ticket.id, {
            body: step.body,
            author_email: step.who,
            internal: step.internal,
          });
        } else if (step.kind === 'ai') {
          const sources = step.articles.flatMap((id) => {
            const article = articles.get(id);
            return article ? [{ title: article.title, url: article.url }] : [];
          });
          model.addAiMessage(tenant, ticket.id, step.body, sources);
        } else {
          model.updateTicket(tenant, ticket.id, step.change, step.by);
        }
      });
    }
    if (story.conversation) {
      const { status, summary } = story.conversation;
      model.atTime(start + MINUTE_MS, () =>
        model.recordConversation(tenant, ticket.id, status, summary),
      );
    }
  }
}

function acmeStories(): Story[] {
  const p = (name: string) => emailOf(name, 'acme.example');
  const sam = p('Sam Rivera');
  const priya = p('Priya Shah');
  const tom = p('Tom Becker');
  const lena = p('Lena Kowalski');
  const handedTo = (team: string) =>
    `I've passed this to the ${team} team; someone will follow up here.`;
  return [
    {
      daysAgo: 28,
      ticket: {
        title: 'Payslip for March is missing',
        desk_id: 'hr',
        requester_email: p('David Cohen'),
        channel: 'slack',
      },
      steps: [
        ai(
          2,
          `Payslips are in the HR portal under "Pay" > "Documents" from the 25th of each month.\n\n${handedTo('People Team')}`,
          ['kb-payslip'],
        ),
        set(2, 'ai_agent', { team: 'People Team', status: 'in_progress' }),
        set(60, lena, { assignee_email: lena }),
        say(65, lena, 'Payroll re-ran the export; your March payslip is in the portal now.'),
        say(120, p('David Cohen'), 'Got it, thank you!'),
        set(180, lena, { status: 'closed' }),
      ],
      conversation: { status: 'handed_off', summary: 'Handed to People Team' },
    },
    {
      daysAgo: 26,
      ticket: {
        title: 'Need access to Salesforce',
        desk_id: 'it-access',
        requester_email: p('Luis Garcia'),
        channel: 'slack',
      },
      steps: [
        set(30, priya, { assignee_email: priya, status: 'in_progress' }),
        say(35, priya, 'Access requested from the Salesforce owner.'),
        say(300, priya, 'Approved and granted. You should see Salesforce in your app launcher.'),
        set(301, priya, { status: 'resolved' }),
        set(3000, priya, { status: 'closed' }),
      ],
    },
    {
      daysAgo: 24,
      ticket: {
        title: 'Keyboard keys sticking',
        desk_id: 'it-hardware',
        priority: 'low',
        requester_email: p('Jonas Weber'),
      },
      steps: [
        set(45, tom, { assignee_email: tom, status: 'in_progress' }),
        say(50, tom, 'A replacement keyboard is on your desk.'),
        set(240, tom, { status: 'closed' }),
      ],
    },
    {
      daysAgo: 20,
      ticket: { title: 'Forgot my password', requester_email: p('Ana Lima'), channel: 'slack' },
      steps: [
        ai(
          1,
          `You can reset your password yourself at the identity portal: choose "Forgot password", enter your work email, confirm the code sent to your phone and pick a new password of at least 12 characters.\n\nI've marked this request resolved. Reply here if you still need help.`,
          ['kb-password-reset'],
        ),
        set(1, 'ai_agent', { status: 'resolved' }),
      ],
      conversation: { status: 'resolved', summary: 'Answered with "Reset your password"' },
    },
    {
      daysAgo: 18,
      ticket: {
        title: 'Phishing email pretending to be the CEO',
        desk_id: 'it',
        priority: 'urgent',
        requester_email: p('Keiko Tanaka'),
        channel: 'slack',
      },
      steps: [
        set(5, sam, { assignee_email: sam, status: 'in_progress' }),
        say(
          6,
          sam,
          'Thanks for reporting. We blocked the sender and removed the email from all mailboxes.',
        ),
        say(7, sam, 'Sender domain added to the block list; 14 mailboxes cleaned.', true),
        set(30, sam, { status: 'resolved' }),
      ],
    },
    {
      daysAgo: 15,
      ticket: {
        title: 'Badge does not open the garage door',
        desk_id: 'facilities',
        requester_email: p('Hugo Moreau'),
      },
      steps: [
        say(
          90,
          p('Lena Kowalski'),
          'Facilities re-encoded your badge at reception; please try again.',
        ),
        set(91, lena, { status: 'resolved' }),
      ],
    },
    {
      daysAgo: 12,
      ticket: {
        title: 'VPN keeps disconnecting every few minutes',
        desk_id: 'it',
        requester_email: p('Ben Okafor'),
        channel: 'slack',
      },
      steps: [
        ai(
          1,
          "Open the VPN client, choose the portal vpn.acme.example, sign in with your work account and approve the MFA prompt.\n\nI've marked this request resolved. Reply here if you still need help.",
          ['kb-vpn'],
        ),
        set(1, 'ai_agent', { status: 'resolved' }),
        say(20, p('Ben Okafor'), 'I am connected, it just drops every 5 minutes.'),
        ai(21, `Sorry that did not solve it.\n\n${handedTo('IT Support')}`),
        set(21, 'ai_agent', { team: 'IT Support', status: 'in_progress' }),
        set(80, sam, { assignee_email: sam }),
        say(82, sam, 'Could you send the VPN client log (Help > Export logs)?'),
        set(82, sam, { status: 'waiting_on_requester' }),
      ],
      conversation: { status: 'handed_off', summary: 'Handed to IT Support' },
    },
    {
      daysAgo: 10,
      ticket: {
        title: 'New hire starts Monday: Maya Patel',
        desk_id: 'hr',
        requester_email: p('Maya Patel'),
        channel: 'slack',
      },
      steps: [
        set(20, lena, { assignee_email: lena, status: 'in_progress' }),
        say(25, lena, 'Laptop ordered, accounts requested. Desk 4.12 is reserved.'),
      ],
    },
    {
      daysAgo: 9,
      ticket: {
        title: 'Printer on the 3rd floor jams constantly',
        desk_id: 'it-hardware',
        requester_email: p('Chloe Martin'),
      },
      steps: [
        ai(
          1,
          `Check that the printer shows "Ready", clear any paper jam through the front panel and re-add the printer from Self Service if your jobs stay queued.\n\n${handedTo('Hardware')}`,
          ['kb-printer'],
        ),
        set(1, 'ai_agent', { team: 'Hardware', status: 'in_progress' }),
        say(200, tom, 'Vendor visit booked for Thursday.', true),
        set(201, tom, { status: 'open' }),
      ],
      conversation: { status: 'handed_off', summary: 'Handed to Hardware' },
    },
    {
      daysAgo: 7,
      ticket: {
        title: 'Zoom crashes when I share my screen',
        desk_id: 'it',
        requester_email: p('Grace Liu'),
      },
      steps: [
        set(40, priya, { assignee_email: priya, status: 'in_progress' }),
        say(42, priya, 'Which Zoom version do you have (Zoom > About)?'),
        set(42, priya, { status: 'waiting_on_requester' }),
      ],
    },
    {
      daysAgo: 6,
      ticket: {
        title: 'Wi-Fi very slow in meeting room B',
        desk_id: 'it',
        priority: 'high',
        requester_email: p('Isla Murphy'),
      },
      steps: [
        set(15, sam, { assignee_email: sam, status: 'in_progress', priority: 'urgent' }),
        say(16, sam, 'The access point in room B is failing; a spare goes in today.'),
      ],
    },
    {
      daysAgo: 5,
      ticket: {
        title: 'Please install Figma',
        desk_id: 'it',
        priority: 'low',
        requester_email: p('Olivia Brown'),
      },
      steps: [
        set(60, priya, { status: 'open' }),
        say(61, priya, 'Licence requested from Design ops.', true),
      ],
    },
    {
      daysAgo: 4,
      ticket: {
        title: 'Lost the phone with my MFA app',
        desk_id: 'it-access',
        priority: 'high',
        requester_email: p('Farid Haddad'),
        channel: 'slack',
      },
      steps: [set(10, priya, { status: 'open', assignee_email: priya })],
    },
    {
      daysAgo: 3,
      ticket: {
        title: 'Parking permit for the new garage',
        desk_id: 'facilities',
        requester_email: p('Noah Schmidt'),
      },
      steps: [
        say(30, lena, 'Which licence plate should the permit carry?'),
        set(30, lena, { status: 'waiting_on_requester' }),
      ],
    },
    {
      daysAgo: 2,
      ticket: {
        title: 'Laptop will not turn on',
        description: 'Pressed the power button, nothing. Charger light is on.',
        desk_id: 'it-hardware',
        priority: 'high',
        requester_email: p('Emma Nilsson'),
        channel: 'slack',
      },
      steps: [
        ai(
          1,
          `Laptops are replaced every four years or when broken. The Hardware team checks your current device and orders a replacement from the standard catalog.\n\n${handedTo('Hardware')}`,
          ['kb-laptop-request'],
        ),
        set(1, 'ai_agent', { team: 'Hardware', status: 'in_progress' }),
        set(30, tom, { assignee_email: tom }),
        say(31, tom, 'Bring it to the IT bar on floor 2; we have a loaner ready.'),
        say(40, p('Emma Nilsson'), 'On my way.'),
      ],
      conversation: { status: 'handed_off', summary: 'Handed to Hardware' },
    },
    {
      daysAgo: 1,
      ticket: {
        title: 'Office chair is broken',
        desk_id: 'facilities',
        priority: 'low',
        requester_email: p('Pedro Alves'),
      },
      steps: [],
    },
    {
      daysAgo: 1,
      ticket: {
        title: 'Outlook calendar not syncing on my phone',
        requester_email: p('Maya Patel'),
        channel: 'slack',
      },
      steps: [],
    },
    {
      daysAgo: 0.5,
      ticket: {
        title: 'Request a second monitor',
        desk_id: 'it-hardware',
        priority: 'low',
        requester_email: p('Ben Okafor'),
        channel: 'slack',
      },
      steps: [],
    },
  ];
}

function globexStories(): Story[] {
  const p = (name: string) => emailOf(name, 'globex.example');
  const mindy = p('Mindy Simmons');
  return [
    {
      daysAgo: 8,
      ticket: {
        title: 'Globex laptop battery swelling',
        desk_id: 'it',
        priority: 'urgent',
        requester_email: p('Frank Grimes'),
      },
      steps: [
        set(10, mindy, { assignee_email: mindy, status: 'in_progress' }),
        say(11, mindy, 'Stop using it; a courier picks it up today.'),
      ],
    },
    {
      daysAgo: 4,
      ticket: {
        title: 'Question about expense reports',
        desk_id: 'support',
        requester_email: p('Lisa Park'),
      },
      steps: [
        say(60, mindy, 'Expenses go through the finance portal.'),
        set(61, mindy, { status: 'resolved' }),
      ],
    },
    {
      daysAgo: 1,
      ticket: {
        title: 'Doomsday device manual request',
        desk_id: 'support',
        requester_email: p('Hank Scorpio'),
      },
      steps: [],
    },
  ];
}

// --- bulk --------------------------------------------------------------------------------------

/** Options of `bulkSeedTickets`. */
export interface BulkSeedOptions {
  /** Creation time of the first ticket; default: so that the last one is `stepMs` before now. */
  startMs?: number;
  /** Time between two tickets; default one minute. */
  stepMs?: number;
  /** Desks to cycle through; default every desk of the tenant. */
  desks?: readonly string[];
}

/**
 * Adds `count` tickets quickly (benchmarks), spread over time and desks, through the model's own
 * create path without waking the AI agent.
 */
export function bulkSeedTickets(
  model: EmulatorModel,
  tenant: string,
  count: number,
  options: BulkSeedOptions = {},
): void {
  const stepMs = options.stepMs ?? MINUTE_MS;
  const startMs = options.startMs ?? model.now() - count * stepMs;
  const desks = options.desks ?? model.listDesks(tenant).items.map((desk) => desk.slug);
  const priorities = ['low', 'medium', 'high', 'urgent'] as const;
  for (let index = 0; index < count; index += 1) {
    model.atTime(startMs + index * stepMs, () =>
      model.createTicket(tenant, {
        title: `Bulk ticket ${index + 1}`,
        desk_id: desks[index % desks.length],
        priority: priorities[index % priorities.length],
        requester_email: `user${index % 500}@${tenant}.example`,
      }),
    );
  }
}
