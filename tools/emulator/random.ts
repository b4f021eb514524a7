/** A small seeded random source, so fault injection is reproducible from a seed. */

/** A function returning a float in [0, 1). */
export type Random = () => number;

/** mulberry32: tiny, fast and good enough to pick faults; not for anything secret. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
