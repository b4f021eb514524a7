/**
 * Each ticket's due time, ordered by it: the in-memory twin of a Redis sorted set, so that the
 * schedule finds what is due in O(due · log n) rather than sorting every ticket on each claim.
 */

interface Entry {
  at: number;
  id: string;
}

// The order of a Redis sorted set: by score, then by member.
function before(a: Entry, b: Entry): boolean {
  return a.at !== b.at ? a.at < b.at : a.id < b.id;
}

/**
 * A map of ticket to due time beside a binary min-heap of (time, ticket). A change of time
 * pushes a new entry and leaves the old one in place; an entry whose time is no longer the
 * ticket's is stale and skipped where it surfaces (lazy deletion), and the heap is rebuilt once
 * stale entries outnumber live ones, so it never holds more than about twice the tickets.
 */
export class DueTimes {
  readonly #at = new Map<string, number>();
  #heap: Entry[] = [];

  /** How many tickets have a due time. */
  get size(): number {
    return this.#at.size;
  }

  /** The ticket's due time, if it has one. */
  get(id: string): number | undefined {
    return this.#at.get(id);
  }

  /** Sets the ticket's due time. */
  set(id: string, at: number): void {
    if (this.#at.get(id) === at) return;
    this.#at.set(id, at);
    this.#push({ at, id });
    if (this.#heap.length > 2 * this.#at.size + 64) this.#rebuild();
  }

  /** Removes the ticket; false when it had no due time. */
  delete(id: string): boolean {
    return this.#at.delete(id);
  }

  /**
   * Takes out the tickets due at or before `until`, earliest first, at most `limit`: they have
   * no due time until the caller sets one.
   */
  takeDue(until: number, limit: number): [string, number][] {
    const taken: [string, number][] = [];
    while (taken.length < limit) {
      const top = this.#liveTop();
      if (!top || top.at > until) break;
      this.#pop();
      this.#at.delete(top.id);
      taken.push([top.id, top.at]);
    }
    return taken;
  }

  /** The earliest due time of any ticket. */
  earliest(): number | undefined {
    return this.#liveTop()?.at;
  }

  /**
   * Every ticket due at or before `until`, earliest first, read without taking anything out:
   * the heap is walked from its root through a second, small heap of the frontier, so reading
   * k tickets costs O(k log k) whatever the number of tickets.
   */
  *ordered(until: number): Generator<[string, number]> {
    const heap = this.#heap;
    const frontier: number[] = [];
    const less = (i: number, j: number) => before(heap[i] as Entry, heap[j] as Entry);
    const add = (index: number) => {
      if (index >= heap.length || (heap[index] as Entry).at > until) return;
      frontier.push(index);
      siftUp(frontier, frontier.length - 1, less);
    };
    add(0);
    while (frontier.length > 0) {
      const index = frontier[0] as number;
      const last = frontier.pop() as number;
      if (frontier.length > 0) {
        frontier[0] = last;
        siftDown(frontier, 0, less);
      }
      add(2 * index + 1);
      add(2 * index + 2);
      const entry = heap[index] as Entry;
      if (this.#at.get(entry.id) === entry.at) yield [entry.id, entry.at];
    }
  }

  // The root, once stale entries above the first live one are dropped.
  #liveTop(): Entry | undefined {
    for (;;) {
      const top = this.#heap[0];
      if (!top || this.#at.get(top.id) === top.at) return top;
      this.#pop();
    }
  }

  #push(entry: Entry): void {
    this.#heap.push(entry);
    siftUp(this.#heap, this.#heap.length - 1, (i, j) => before(i, j));
  }

  #pop(): void {
    const last = this.#heap.pop();
    if (last === undefined || this.#heap.length === 0) return;
    this.#heap[0] = last;
    siftDown(this.#heap, 0, (i, j) => before(i, j));
  }

  #rebuild(): void {
    this.#heap = [...this.#at].map(([id, at]) => ({ at, id }));
    for (let index = (this.#heap.length >> 1) - 1; index >= 0; index--) {
      siftDown(this.#heap, index, (i, j) => before(i, j));
    }
  }
}

function siftUp<T>(heap: T[], from: number, less: (a: T, b: T) => boolean): void {
  let index = from;
  const item = heap[index] as T;
  while (index > 0) {
    const parent = (index - 1) >> 1;
    const above = heap[parent] as T;
    if (!less(item, above)) break;
    heap[index] = above;
    index = parent;
  }
  heap[index] = item;
}

function siftDown<T>(heap: T[], from: number, less: (a: T, b: T) => boolean): void {
  let index = from;
  const item = heap[index] as T;
  for (;;) {
    const left = 2 * index + 1;
    if (left >= heap.length) break;
    const right = left + 1;
    const child = right < heap.length && less(heap[right] as T, heap[left] as T) ? right : left;
    if (!less(heap[child] as T, item)) break;
    heap[index] = heap[child] as T;
    index = child;
  }
  heap[index] = item;
}
