import { describe, expect, it } from 'vitest';
import { hashIdempotencyKey } from '../../src/servicedesk/index.ts';

describe('idempotency keys', () => {
  it('hashes a raw key to a fixed value, the same in every process and release', () => {
    // Computed once, independently: sha256("servicedesk-slack:idempotency:v1:" + raw). If this
    // changes, keys already remembered by the platform stop matching and retries duplicate.
    expect(hashIdempotencyKey('A0APP:T0TEAM:Ev0EVENT')).toBe(
      'c184314dfa9eb274581cbdc0577193cc984ac565483bef49c6baacc9fd65e595',
    );
  });

  it('gives different raw keys different hashes', () => {
    expect(hashIdempotencyKey('C1:1700000000.000100')).not.toBe(
      hashIdempotencyKey('C1:1700000000.000200'),
    );
  });

  it('gives a value that travels in a header', () => {
    expect(hashIdempotencyKey('V123ABC')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses an empty raw key', () => {
    expect(() => hashIdempotencyKey('')).toThrow(TypeError);
  });
});
