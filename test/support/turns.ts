// How many turns of the event loop pass while a request runs: work done in slices, with a turn
// between them (setImmediate), lets a spinner run; work done in one go lets it run at most once.

/** Runs `work`, counting the turns of the event loop that pass while it runs. */
export async function turnsDuring<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  let running = true;
  const spin = () => {
    turns++;
    if (running) setImmediate(spin);
  };
  setImmediate(spin);
  try {
    return { result: await work(), turns };
  } finally {
    running = false;
  }
}
