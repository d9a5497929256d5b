// One webhook POST over undici's fetch: signed per Standard Webhooks with the standardwebhooks
// package (or forged as the plan says, forge.ts), refused before connecting when the target policy
// says so, cut off after the timeout, and every failure put in words for the delivery log. The
// signature timestamp is real time, since receivers compare it with their own clock, while the log
// records the tenant's time.
import { performance } from 'node:perf_hooks';
import type { Clock } from '../../kernel/clock.js';
import type { AttemptPlan } from './deliveries.service.js';
import { signedRequest } from './forge.js';
import { TargetRefused, type Targets } from './targets.js';

export interface PostResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** The headers the POST carried; null when it was refused before connecting. */
  requestHeaders: Record<string, string> | null;
  /** The start of the receiver's answer (RESPONSE_KEPT characters); null when none came. */
  responseBody: string | null;
}

/** How much of a receiver's answer the delivery log keeps. */
export const RESPONSE_KEPT = 500;

export async function postWebhook(plan: AttemptPlan, opts: { timeoutMs: number; targets: Targets; wallClock: Clock }): Promise<PostResult> {
  const refusal = opts.targets.refusal(plan.url);
  if (refusal) return { statusCode: null, error: refusal, durationMs: 0, requestHeaders: null, responseBody: null };
  const { headers, body } = signedRequest(plan, opts.wallClock.now(), plan.forged);
  // undici is loaded on the first attempt, not at start: it is a fifth of the start-up time.
  const { fetch } = await import('undici');
  const started = performance.now();
  let statusCode: number | null = null;
  let error: string | null = null;
  let responseBody: string | null = null;
  try {
    const res = await fetch(plan.url, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(opts.timeoutMs),
      dispatcher: opts.targets.dispatcher,
    });
    statusCode = res.status;
    responseBody = await start(res.body as ReadableStream<Uint8Array> | null);
  } catch (err) {
    error = describe(err, opts.timeoutMs);
  }
  return { statusCode, error, durationMs: Math.round(performance.now() - started), requestHeaders: headers, responseBody };
}

/** The first RESPONSE_KEPT characters of an answer; the rest is not read. */
async function start(body: ReadableStream<Uint8Array> | null): Promise<string> {
  if (!body) return '';
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length < RESPONSE_KEPT) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return text.slice(0, RESPONSE_KEPT);
}

function describe(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return `Timed out: no answer within ${timeoutMs / 1000} s`;
  if (e.cause instanceof TargetRefused) return e.cause.message;
  const code = e.cause?.code;
  if (code === 'ECONNREFUSED') return 'Connection refused (ECONNREFUSED)';
  if (code) return `Could not connect (${code})`;
  return e.cause?.message ?? e.message ?? String(err);
}
