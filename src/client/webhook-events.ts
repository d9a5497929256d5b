// The events a webhook inbox hands out, typed from the partner API's document (partner-api.ts).
import type { EventData, EventType } from './partner-api.js';

/** An event the sandbox sends (payout.failed), or webhook.test. */
export type WebhookEventType = EventType | 'webhook.test';
/** A delivery's data for event E, in snake_case as the body carries it. */
export type WebhookPayloadOf<E extends string> = E extends 'webhook.test' ? Record<string, unknown> : EventData<E>;
