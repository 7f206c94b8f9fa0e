// The replay's steps and deals, without the DOM: where each deal starts among the frames,
// which deal a step is in, where "previous deal" and "next deal" go, and the playing speeds.

/** The speeds offered, as multiples of one step a second (0.25× to 8×). */
export const SPEEDS = [0.25, 0.5, 1, 2, 4, 8];

/** The speed a replay starts at, until the player chooses another. */
export const DEFAULT_SPEED = 2;

/** One step a second at 1×: a 12-deal game of some 700 steps plays in 90 s at 8×. */
const STEP_MS_AT_1X = 1000;

/** The wait between two steps at `speed`. */
export const stepMs = (speed) => STEP_MS_AT_1X / speed;

/** A remembered speed if it is one offered, else the default. */
export const knownSpeed = (value) => (SPEEDS.includes(Number(value)) ? Number(value) : DEFAULT_SPEED);

/** The index of the first frame of each deal, in order (frames carry their `deal`). */
export function dealStarts(frames) {
  const starts = [];
  frames.forEach((frame, index) => {
    if (index === 0 || frame.deal !== frames[index - 1].deal) starts.push(index);
  });
  return starts;
}

/** The position (0-based) in `starts` of the deal that step `index` belongs to. */
export function dealOf(starts, index) {
  let found = 0;
  for (let i = 0; i < starts.length; i += 1) if (starts[i] <= index) found = i;
  return found;
}

/** Where "previous deal" goes from step `index`: the start of the deal before this one
 * (from the first deal, its first step). */
export function previousDeal(starts, index) {
  if (!starts.length) return 0;
  return starts[Math.max(0, dealOf(starts, index) - 1)];
}

/** Where "next deal" goes from step `index`: the start of the next deal, or null from the
 * last. */
export function nextDeal(starts, index) {
  const next = dealOf(starts, index) + 1;
  return next < starts.length ? starts[next] : null;
}
