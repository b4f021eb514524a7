/** Waiting for what another part does (kept in tools/stack, as the benches wait too). */
export * from '../../tools/stack/eventually.ts';
