/**
 * The demo data: a plausible mid-size company (acme) and a small second tenant (globex) whose
 * data acme must never see. Plain data only; `seed.ts` writes it into the model.
 */
import type {
  Application,
  Asset,
  CatalogItem,
  CustomField,
  Desk,
  Employee,
} from '../../src/contract/schemas.ts';
import type { DeskRouting, KnowledgeArticle } from './model.ts';

/** The desks every IT-style tenant starts with; `it-hardware` and `it-access` are subdesks. */
export const STANDARD_DESKS: Desk[] = [
  { slug: 'it', name: 'IT Support', parent_slug: null },
  { slug: 'it-hardware', name: 'Hardware', parent_slug: 'it' },
  { slug: 'it-access', name: 'Accounts & Access', parent_slug: 'it' },
  { slug: 'hr', name: 'People', parent_slug: null },
  { slug: 'facilities', name: 'Facilities', parent_slug: null },
];

const OFFICES = [
  { value: 'berlin', label: 'Berlin' },
  { value: 'london', label: 'London' },
  { value: 'new-york', label: 'New York' },
  { value: 'remote', label: 'Remote' },
];

const DEVICE_TYPES = [
  { value: 'laptop', label: 'Laptop' },
  { value: 'desktop', label: 'Desktop' },
  { value: 'phone', label: 'Phone' },
  { value: 'monitor', label: 'Monitor' },
  { value: 'other', label: 'Other' },
];

/**
 * The custom fields of the standard desks, one of each type. The IT desks' are optional, so
 * tickets filed without a form (a reaction, a DM, another integration) still file there; the
 * People desk requires its two, as onboarding cannot start without them. `device_type` is on two desks, so
 * switching between them keeps its value.
 */
export const STANDARD_CUSTOM_FIELDS: CustomField[] = [
  {
    key: 'device_type',
    name: 'Device type',
    desk_id: 'it',
    type: 'select',
    required: false,
    options: DEVICE_TYPES,
    help: 'What kind of device the problem is on, if any.',
  },
  {
    key: 'office',
    name: 'Office',
    desk_id: 'it',
    type: 'select',
    required: false,
    options: OFFICES,
    help: null,
  },
  {
    key: 'device_type',
    name: 'Device type',
    desk_id: 'it-hardware',
    type: 'select',
    required: false,
    options: DEVICE_TYPES,
    help: null,
  },
  {
    key: 'serial_number',
    name: 'Serial number',
    desk_id: 'it-hardware',
    type: 'text',
    required: false,
    options: null,
    help: 'On a sticker under the device or in its settings.',
  },
  {
    key: 'systems',
    name: 'Systems',
    desk_id: 'it-access',
    type: 'multi_select',
    required: false,
    options: [
      { value: 'email', label: 'Email' },
      { value: 'vpn', label: 'VPN' },
      { value: 'sso', label: 'Single sign-on' },
      { value: 'github', label: 'GitHub' },
    ],
    help: null,
  },
  {
    key: 'start_date',
    name: 'Start date',
    desk_id: 'hr',
    type: 'date',
    required: true,
    options: null,
    help: 'The first working day.',
  },
  {
    key: 'manager_email',
    name: 'Manager’s email',
    desk_id: 'hr',
    type: 'email',
    required: true,
    options: null,
    help: null,
  },
  {
    key: 'floor',
    name: 'Floor',
    desk_id: 'facilities',
    type: 'number',
    required: false,
    options: null,
    help: null,
  },
  {
    key: 'location_details',
    name: 'Where exactly',
    desk_id: 'facilities',
    type: 'textarea',
    required: false,
    options: null,
    help: 'Room, desk number or a landmark.',
  },
];

/** Which words send a ticket to which desk, first match wins, and each desk's human team. */
export const STANDARD_ROUTING: DeskRouting[] = [
  {
    desk: 'it-access',
    team: 'Identity & Access',
    keywords: [
      'password',
      'login',
      'log in',
      'locked out',
      'mfa',
      '2fa',
      'sso',
      'access to',
      'account',
    ],
  },
  {
    desk: 'it-hardware',
    team: 'Hardware',
    keywords: [
      'laptop',
      'monitor',
      'keyboard',
      'mouse',
      'printer',
      'dock',
      'headset',
      'screen',
      'battery',
    ],
  },
  {
    desk: 'it',
    team: 'IT Support',
    keywords: [
      'vpn',
      'wifi',
      'wi-fi',
      'email',
      'outlook',
      'zoom',
      'software',
      'install',
      'network',
      'phishing',
    ],
  },
  {
    desk: 'hr',
    team: 'People Team',
    keywords: [
      'payroll',
      'payslip',
      'holiday',
      'vacation',
      'leave',
      'benefits',
      'onboarding',
      'new hire',
    ],
  },
  {
    desk: 'facilities',
    team: 'Facilities',
    keywords: [
      'chair',
      'office',
      'badge',
      'parking',
      'heating',
      'air conditioning',
      'kitchen',
      'meeting room',
    ],
  },
];

/** The knowledge base the AI agent answers from; `resolves` marks self-service answers. */
export function standardKnowledgeBase(kbHost: string): KnowledgeArticle[] {
  const url = (slug: string) => `https://${kbHost}/kb/${slug}`;
  return [
    {
      id: 'kb-password-reset',
      title: 'Reset your password',
      url: url('password-reset'),
      keywords: ['password', 'reset password', 'forgot password', 'locked out', 'password expired'],
      answer:
        'You can reset your password yourself at the identity portal: choose "Forgot password", enter your work email, confirm the code sent to your phone and pick a new password of at least 12 characters. The reset also unlocks a locked account.',
      resolves: true,
    },
    {
      id: 'kb-vpn',
      title: 'Connect to the VPN',
      url: url('vpn'),
      keywords: ['vpn', 'remote access', 'connect from home', 'globalprotect'],
      answer:
        'Open the VPN client, choose the portal vpn.acme.example, sign in with your work account and approve the MFA prompt. If the client is missing, install it from the Self Service app.',
      resolves: true,
    },
    {
      id: 'kb-mfa',
      title: 'Set up multi-factor authentication',
      url: url('mfa'),
      keywords: ['mfa', '2fa', 'two-factor', 'authenticator'],
      answer:
        'Install the authenticator app, then open the security page of your account, choose "Add method" and scan the QR code. Keep the recovery codes somewhere safe.',
      resolves: true,
    },
    {
      id: 'kb-wifi',
      title: 'Office Wi-Fi',
      url: url('wifi'),
      keywords: ['wifi', 'wi-fi', 'wireless', 'guest network'],
      answer:
        'Staff devices join "acme-corp" with their work account; visitors use "acme-guest" with the code shown at reception, which changes every Monday.',
      resolves: true,
    },
    {
      id: 'kb-payslip',
      title: 'Find your payslip',
      url: url('payslip'),
      keywords: ['payslip', 'payroll', 'salary statement'],
      answer:
        'Payslips are in the HR portal under "Pay" > "Documents" from the 25th of each month.',
      resolves: true,
    },
    {
      id: 'kb-printer',
      title: 'Printer troubleshooting',
      url: url('printer'),
      keywords: ['printer', 'print', 'printing', 'paper jam', 'toner'],
      answer:
        'Check that the printer shows "Ready", clear any paper jam through the front panel and re-add the printer from Self Service if your jobs stay queued.',
      resolves: false,
    },
    {
      id: 'kb-laptop-request',
      title: 'Request a new laptop',
      url: url('laptop-request'),
      keywords: ['laptop', 'new laptop', 'replacement laptop', 'computer'],
      answer:
        'Laptops are replaced every four years or when broken. The Hardware team checks your current device and orders a replacement from the standard catalog.',
      resolves: false,
    },
    {
      id: 'kb-software',
      title: 'Install software',
      url: url('software'),
      keywords: ['install', 'software', 'license', 'licence'],
      answer:
        'Approved software is in the Self Service app. Anything else needs a licence request, which IT reviews within two working days.',
      resolves: false,
    },
  ];
}

const ACME_PEOPLE: ReadonlyArray<[name: string, department: string, role: 'agent' | 'employee']> = [
  ['Sam Rivera', 'IT', 'agent'],
  ['Priya Shah', 'IT', 'agent'],
  ['Tom Becker', 'IT', 'agent'],
  ['Lena Kowalski', 'People', 'agent'],
  ['Ana Lima', 'Sales', 'employee'],
  ['Ben Okafor', 'Engineering', 'employee'],
  ['Chloe Martin', 'Marketing', 'employee'],
  ['David Cohen', 'Finance', 'employee'],
  ['Emma Nilsson', 'Engineering', 'employee'],
  ['Farid Haddad', 'Sales', 'employee'],
  ['Grace Liu', 'Design', 'employee'],
  ['Hugo Moreau', 'Operations', 'employee'],
  ['Isla Murphy', 'Customer Success', 'employee'],
  ['Jonas Weber', 'Engineering', 'employee'],
  ['Keiko Tanaka', 'Finance', 'employee'],
  ['Luis Garcia', 'Sales', 'employee'],
  ['Maya Patel', 'Legal', 'employee'],
  ['Noah Schmidt', 'Operations', 'employee'],
  ['Olivia Brown', 'Marketing', 'employee'],
  ['Pedro Alves', 'Engineering', 'employee'],
];

/** `First Last` → `first.last@domain`. */
export function emailOf(name: string, domain: string): string {
  return `${name.toLowerCase().replace(/\s+/g, '.')}@${domain}`;
}

/** acme's employees: 20 people, four of them agents. */
export const ACME_EMPLOYEES: Employee[] = ACME_PEOPLE.map(([name, department, role], index) => ({
  id: `emp_${String(index + 1).padStart(3, '0')}`,
  email: emailOf(name, 'acme.example'),
  name,
  department,
  role,
}));

const DEVICE_MODELS: ReadonlyArray<[name: string, type: string]> = [
  ['MacBook Pro 14"', 'laptop'],
  ['ThinkPad X1 Carbon', 'laptop'],
  ['Dell U2723QE', 'monitor'],
  ['iPhone 15', 'phone'],
];

/** acme's assets: a laptop for everyone, and a monitor or phone for some (deterministic). */
export const ACME_ASSETS: Asset[] = ACME_EMPLOYEES.flatMap((employee, index) => {
  const laptop = DEVICE_MODELS[index % 2] ?? ['Laptop', 'laptop'];
  const extra = DEVICE_MODELS[2 + (index % 2)] ?? ['Monitor', 'monitor'];
  const assets: Asset[] = [
    {
      id: `ast_${String(index * 2 + 1).padStart(3, '0')}`,
      name: laptop[0],
      type: laptop[1],
      serial_number: `SN-L${String(1000 + index * 7)}`,
      assigned_to_email: employee.email,
    },
  ];
  if (index % 3 === 0) {
    assets.push({
      id: `ast_${String(index * 2 + 2).padStart(3, '0')}`,
      name: extra[0],
      type: extra[1],
      serial_number: `SN-X${String(2000 + index * 11)}`,
      assigned_to_email: employee.email,
    });
  }
  return assets;
});

/** acme's applications; the discovered ones were found in use without being approved. */
export const ACME_APPLICATIONS: Application[] = [
  ['Slack', false],
  ['Google Workspace', false],
  ['Zoom', false],
  ['Jira', false],
  ['Figma', false],
  ['Salesforce', false],
  ['GitHub', false],
  ['Notion', true],
  ['Dropbox', true],
  ['Trello', true],
  ['Canva', true],
].map(([name, discovered], index) => ({
  id: `app_${String(index + 1).padStart(3, '0')}`,
  name: String(name),
  discovered: Boolean(discovered),
}));

/** acme's service catalog. */
export const ACME_CATALOG: CatalogItem[] = [
  ['New laptop', 'A standard laptop with the company image.', 'it-hardware'],
  ['Extra monitor', 'A 27" monitor for your desk or home office.', 'it-hardware'],
  ['Headset', 'A noise-cancelling headset for calls.', 'it-hardware'],
  ['Software licence', 'A licence for software outside the Self Service app.', 'it'],
  [
    'Access to an application',
    'Access to a company application, approved by its owner.',
    'it-access',
  ],
  ['New hire onboarding', 'Accounts, equipment and a desk for a new colleague.', 'hr'],
  ['Parking permit', 'A permit for the office garage.', 'facilities'],
  ['Desk move', 'Move your desk and equipment to another spot.', 'facilities'],
].map(([name, description, desk], index) => ({
  id: `cat_${String(index + 1).padStart(3, '0')}`,
  name: String(name),
  description: String(description),
  desk_id: String(desk),
}));

/** globex's desks: a smaller company with one support desk and IT. */
export const GLOBEX_DESKS: Desk[] = [
  { slug: 'support', name: 'Support', parent_slug: null },
  { slug: 'it', name: 'IT', parent_slug: null },
];

/** globex's routing. */
export const GLOBEX_ROUTING: DeskRouting[] = [
  { desk: 'it', team: 'Globex IT', keywords: ['laptop', 'password', 'vpn', 'email', 'printer'] },
  { desk: 'support', team: 'Globex Support', keywords: ['help', 'question'] },
];

/** globex's employees: four people, one agent. */
export const GLOBEX_EMPLOYEES: Employee[] = [
  ['Hank Scorpio', 'Management', 'employee'],
  ['Mindy Simmons', 'Support', 'agent'],
  ['Frank Grimes', 'Engineering', 'employee'],
  ['Lisa Park', 'Finance', 'employee'],
].map(([name, department, role], index) => ({
  id: `gx_emp_${index + 1}`,
  email: emailOf(String(name), 'globex.example'),
  name: String(name),
  department: String(department),
  role: String(role),
}));
