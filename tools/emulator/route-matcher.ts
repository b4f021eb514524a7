/**
 * Maps a method and path to an operation of the shared route table, under one variant. The
 * emulator serves exactly the table's paths (trailing slash included), so a client that
 * builds a wrong path finds out here rather than against a real tenant.
 */
import {
  areaPrefix,
  type HttpMethod,
  type OperationName,
  ROUTES,
  type Variant,
} from '../../src/contract/routes.ts';

/** What a request's method and path mean. */
export type RouteMatch =
  | { kind: 'operation'; operation: OperationName; ticketId?: string }
  | { kind: 'method_not_allowed'; allow: HttpMethod[] }
  | { kind: 'not_found' };

interface CompiledRoute {
  operation: OperationName;
  method: HttpMethod;
  pattern: RegExp;
}

/** Builds the matcher for a variant. */
export function createRouteMatcher(
  variant: Variant,
): (method: string, pathname: string) => RouteMatch {
  const compiled: CompiledRoute[] = (Object.keys(ROUTES) as OperationName[]).map((operation) => {
    const route = ROUTES[operation];
    const path = escapeRegExp(areaPrefix(variant, route.area) + route.path).replace(
      '\\{id\\}',
      '([^/]+)',
    );
    return { operation, method: route.method, pattern: new RegExp(`^${path}$`) };
  });
  return (method, pathname) => {
    const allow: HttpMethod[] = [];
    for (const route of compiled) {
      const match = route.pattern.exec(pathname);
      if (!match) continue;
      if (route.method !== method) {
        allow.push(route.method);
        continue;
      }
      const raw = match[1];
      if (raw === undefined) return { kind: 'operation', operation: route.operation };
      const ticketId = decodeSegment(raw);
      return ticketId === undefined
        ? { kind: 'not_found' }
        : { kind: 'operation', operation: route.operation, ticketId };
    }
    return allow.length > 0 ? { kind: 'method_not_allowed', allow } : { kind: 'not_found' };
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function decodeSegment(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}
