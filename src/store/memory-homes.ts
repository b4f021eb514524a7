/** Conversation homes held in this process's memory: the twin of `redis-homes.ts`. */
import { requireKey } from './argument-checks.ts';
import type { ConversationHomes } from './types.ts';

/** Homes in a Map; there are as many as ids the app met, so nothing is evicted. */
export class MemoryConversationHomes implements ConversationHomes {
  readonly #homes = new Map<string, string>();

  async note(id: string, workspace: string): Promise<void> {
    requireKey(id, 'conversation or user id');
    requireKey(workspace, 'workspace');
    this.#homes.set(id, workspace);
  }

  async adopt(ids: readonly string[], workspace: string): Promise<number> {
    requireKey(workspace, 'workspace');
    for (const id of ids) requireKey(id, 'conversation or user id');
    let noted = 0;
    for (const id of ids) {
      if (this.#homes.has(id)) continue;
      this.#homes.set(id, workspace);
      noted += 1;
    }
    return noted;
  }

  async homeOf(id: string): Promise<string | undefined> {
    requireKey(id, 'conversation or user id');
    return this.#homes.get(id);
  }

  async forget(workspace: string): Promise<string[]> {
    requireKey(workspace, 'workspace');
    const gone = [...this.#homes].filter(([, home]) => home === workspace).map(([id]) => id);
    for (const id of gone) this.#homes.delete(id);
    return gone.sort();
  }
}
