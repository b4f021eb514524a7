/**
 * The route table: every operation of the platform API with its area, method and path.
 *
 * The specification only shows List tickets; everything else is the project's choice
 * (docs/platform-contract.md). Keeping all of it here means one edit when the real platform differs.
 */

/** Addressing variant: A is a per-organization host, B a shared host with per-area prefixes. */
export type Variant = 'a' | 'b';

/** The platform's API areas; under variant B each has its own path prefix. */
export type Area =
  | 'tickets'
  | 'desks'
  | 'people'
  | 'assets'
  | 'applications'
  | 'catalog'
  | 'requests';

/** Path prefix of each area under variant B (variant A uses none). */
export const AREA_PREFIXES_B: Readonly<Record<Area, string>> = {
  tickets: '/service-desk',
  desks: '/service-desk',
  people: '/employees',
  assets: '/asset-management',
  applications: '/applications',
  catalog: '/service-catalog',
  requests: '/agents',
};

/** HTTP methods the API uses. */
export type HttpMethod = 'GET' | 'POST' | 'PATCH';

/** One operation of the route table. `path` uses `{id}` for the ticket ID. */
export interface Route {
  readonly area: Area;
  readonly method: HttpMethod;
  readonly path: string;
  /** Whether the platform honours X-Idempotency-Key on this operation. */
  readonly idempotent?: boolean;
}

/** Every operation the client and the emulator know, by name. */
export const ROUTES = {
  listTickets: { area: 'tickets', method: 'GET', path: '/api/v1/tickets/' },
  getTicket: { area: 'tickets', method: 'GET', path: '/api/v1/tickets/{id}/' },
  createTicket: { area: 'tickets', method: 'POST', path: '/api/v1/tickets/', idempotent: true },
  updateTicket: { area: 'tickets', method: 'PATCH', path: '/api/v1/tickets/{id}/' },
  listActivity: { area: 'tickets', method: 'GET', path: '/api/v1/tickets/{id}/activity/' },
  addMessage: {
    area: 'tickets',
    method: 'POST',
    path: '/api/v1/tickets/{id}/messages/',
    idempotent: true,
  },
  listMessages: { area: 'tickets', method: 'GET', path: '/api/v1/tickets/{id}/messages/' },
  listDesks: { area: 'desks', method: 'GET', path: '/api/v1/desks/' },
  listEmployees: { area: 'people', method: 'GET', path: '/api/v1/employees/' },
  listAssets: { area: 'assets', method: 'GET', path: '/api/v1/assets/' },
  listApplications: { area: 'applications', method: 'GET', path: '/api/v1/applications/' },
  listCatalogItems: { area: 'catalog', method: 'GET', path: '/api/v1/catalog-items/' },
  // Custom fields share the desks' area: `/service-desk` under variant B, as the contract says.
  listCustomFields: { area: 'desks', method: 'GET', path: '/api/v1/custom-fields/' },
  listRequests: { area: 'requests', method: 'GET', path: '/api/v1/requests/' },
} as const satisfies Record<string, Route>;

/** Name of an operation in the route table. */
export type OperationName = keyof typeof ROUTES;

/** The path prefix of an area under a variant. */
export function areaPrefix(variant: Variant, area: Area): string {
  return variant === 'b' ? AREA_PREFIXES_B[area] : '';
}

/**
 * Normalises a base URL: trims whitespace and trailing slashes, keeps any path the
 * tenant's URL carries (a reverse proxy may mount the API below a path).
 */
export function normaliseBaseUrl(raw: string): string {
  const trimmed = raw.trim();
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new TypeError(`Service-desk base URL is not a valid URL: "${trimmed}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`Service-desk base URL must be http or https, got "${url.protocol}"`);
  }
  if (url.username || url.password) {
    throw new TypeError('Service-desk base URL must not carry credentials; use the access key');
  }
  url.search = '';
  url.hash = '';
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** The path (prefix + route path with the ticket ID filled in) of one operation. */
export function routePath(variant: Variant, operation: OperationName, ticketId?: string): string {
  const route: Route = ROUTES[operation];
  let path = route.path;
  if (path.includes('{id}')) {
    if (ticketId === undefined) throw new TypeError(`${operation} needs a ticket ID`);
    path = path.replace('{id}', encodeURIComponent(ticketId));
  }
  return areaPrefix(variant, route.area) + path;
}
