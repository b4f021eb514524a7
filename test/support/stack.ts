/** The whole stack for end-to-end and operations tests, kept in tools/ as the benches use it too. */
export * from '../../tools/stack/stack.ts';
