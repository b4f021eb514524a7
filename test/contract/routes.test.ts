import { describe, expect, it } from 'vitest';
import { normaliseBaseUrl, routePath } from '../../src/contract/routes.ts';

describe('route table', () => {
  it('uses no prefix under variant A', () => {
    expect(routePath('a', 'listTickets')).toBe('/api/v1/tickets/');
  });

  it('uses the area prefix under variant B', () => {
    expect(routePath('b', 'listTickets')).toBe('/service-desk/api/v1/tickets/');
    expect(routePath('b', 'listEmployees')).toBe('/employees/api/v1/employees/');
    expect(routePath('b', 'listAssets')).toBe('/asset-management/api/v1/assets/');
    expect(routePath('b', 'listApplications')).toBe('/applications/api/v1/applications/');
    expect(routePath('b', 'listCatalogItems')).toBe('/service-catalog/api/v1/catalog-items/');
    expect(routePath('b', 'listRequests')).toBe('/agents/api/v1/requests/');
    expect(routePath('b', 'listDesks')).toBe('/service-desk/api/v1/desks/');
  });

  it('fills the ticket ID into the path', () => {
    expect(routePath('a', 'addMessage', 'IT-4')).toBe('/api/v1/tickets/IT-4/messages/');
  });

  it('normalises the base URL by dropping trailing slashes, query and fragment', () => {
    expect(normaliseBaseUrl(' https://acme.example.com/// ')).toBe('https://acme.example.com');
    expect(normaliseBaseUrl('https://desk.example.com/proxy/?x=1#y')).toBe(
      'https://desk.example.com/proxy',
    );
  });

  it('refuses a base URL that carries credentials', () => {
    expect(() => normaliseBaseUrl('https://user:secret@acme.example.com')).toThrow(/credentials/);
  });
});
