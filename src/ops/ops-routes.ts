/**
 * The operations routes, served next to /healthz on the app's HTTP port in every mode and role
 * (by the receiver's own server: beside /slack/events over HTTP, alone beside the Socket Mode
 * connection, alone in a worker): /readyz and /metrics.
 */
import type { CustomRoute } from '@slack/bolt';
import type { Registry } from 'prom-client';
import type { Readiness } from './readiness.ts';

/** What the routes read. */
export interface OpsRoutesOptions {
  readiness: Readiness;
  registry: Registry;
}

/** /readyz (200 ready, 503 not, with each check's verdict as JSON) and /metrics (Prometheus text). */
export function opsRoutes(options: OpsRoutesOptions): CustomRoute[] {
  const { readiness, registry } = options;
  return [
    {
      path: '/readyz',
      method: ['GET'],
      handler: (_req, res) => {
        readiness.check().then(
          (report) => {
            res.writeHead(report.ready ? 200 : 503, {
              'content-type': 'application/json',
              'cache-control': 'no-store',
            });
            res.end(JSON.stringify({ status: report.ready ? 'ready' : 'not_ready', ...report }));
          },
          () => {
            res.writeHead(503, { 'content-type': 'application/json' });
            res.end('{"status":"not_ready"}');
          },
        );
      },
    },
    {
      path: '/metrics',
      method: ['GET'],
      handler: (_req, res) => {
        registry.metrics().then(
          (text) => {
            res.writeHead(200, {
              'content-type': registry.contentType,
              'cache-control': 'no-store',
            });
            res.end(text);
          },
          () => {
            res.writeHead(500, { 'content-type': 'text/plain' });
            res.end('metrics could not be collected\n');
          },
        );
      },
    },
  ];
}
