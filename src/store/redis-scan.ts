/** Listing keys by pattern on a single node and on every master of a Cluster alike. */
import { Cluster, type Redis } from 'ioredis';
import type { RedisClient } from './redis-script.ts';
import { runCommand } from './redis-script.ts';

/** Every key matching `pattern` (a SCAN glob), sorted; `operation` names it in errors. */
export async function scanAll(
  redis: RedisClient,
  pattern: string,
  operation = 'migrate.scan',
): Promise<string[]> {
  const nodes: Redis[] = redis instanceof Cluster ? redis.nodes('master') : [redis];
  const found: string[] = [];
  for (const node of nodes) {
    let cursor = '0';
    do {
      const [next, keys] = await runCommand(operation, () =>
        node.scan(cursor, 'MATCH', pattern, 'COUNT', 1000),
      );
      found.push(...keys);
      cursor = next;
    } while (cursor !== '0');
  }
  return found.sort();
}

/** `text` with the characters SCAN's MATCH treats as a glob escaped. */
export function globEscape(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&');
}
