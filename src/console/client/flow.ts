// The shape of a guided flow: real API calls, one step at a time, each shown as it completes.
import type { CallOptions, Exchange } from './api.js';

/** Runs one call, shows it, and throws when the status is not the expected one (any 2xx by default). */
export type Step = (label: string, method: string, path: string, opts?: CallOptions & { expect?: number }) => Promise<Exchange>;

export interface FlowTools {
  /** A fresh reference for this run: prefix plus time and randomness, so reruns never collide. */
  reference(prefix: string): string;
  /** The text of the first element of that name in an XML body. */
  xmlText(xml: unknown, element: string): string;
  /** A rate as a person reads it ("1 USDT = 1,585.14 NGN") from the API's multiplier: from × rate = to. */
  rate(from: string, to: string, multiplier: unknown): string;
}

export interface Flow {
  id: string;
  title: string;
  /** The steps as the button's caption shows them. */
  outline: string;
  /** Runs the steps; returns a one-line summary of the outcome. */
  run(step: Step, tools: FlowTools): Promise<string>;
}
