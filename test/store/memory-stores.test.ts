import { describe } from 'vitest';
import { createMemoryStores } from '../../src/store/memory-stores.ts';
import { describeClaimsContract } from './contract/claims-contract.ts';
import type { StoresBackend } from './contract/harness.ts';
import { describeLinksContract } from './contract/links-contract.ts';
import { describeOutboxContract } from './contract/outbox-contract.ts';

// One process: every "replica" is the same instance, and nothing outlives it.
const backend: StoresBackend = {
  durable: false,
  namespace(clock, options) {
    const stores = createMemoryStores({ now: clock.now, ...options });
    return { open: () => stores };
  },
};

describe('in-memory stores', () => {
  describeClaimsContract(backend);
  describeOutboxContract(backend);
  describeLinksContract(backend);
});
