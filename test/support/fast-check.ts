// Property tests run from one fixed seed, so a CI run is reproducible and a failure replays.
// FC_SEED=<number> picks another seed; FC_SEED=random draws a fresh one each run (to explore).
import fc from 'fast-check';

const FIXED_SEED = 20261122;
const chosen = process.env.FC_SEED;
if (chosen !== 'random') {
  const seed = chosen === undefined ? FIXED_SEED : Number(chosen);
  if (!Number.isInteger(seed)) throw new Error(`FC_SEED must be an integer or "random", got "${chosen}"`);
  fc.configureGlobal({ seed });
}
