// Turns of the event loop for work done in slices, taken one slice at a time by all of it together.
// Awaiting setImmediate gives other work its turn, but every slice waiting on it runs in the same
// pass of the loop: sixteen bulk uploads under way at once, each slicing its work 4 ms at a time,
// ran 16 slices back to back between two reads of the sockets (50 to 130 ms, every key waiting).
// Here the waiting slices go one per pass of the loop, first come first served, with the sockets
// read between them.

const waiting: (() => void)[] = [];
let armed = false;

function release(): void {
  const next = waiting.shift();
  // Set during the loop's check phase, the next release runs in the next pass, after its I/O.
  if (waiting.length > 0) setImmediate(release);
  else armed = false;
  next?.();
}

/** Resolves at a turn of the event loop of its own: at most one waiting slice goes on per pass. */
export function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => {
    waiting.push(resolve);
    if (!armed) {
      armed = true;
      setImmediate(release);
    }
  });
}
