// The package's client entry (payments-sandbox/client): the typed control client alone, for a
// sandbox run elsewhere (a container, a shared host). It loads nothing of the server.
export { CONTROL_OPERATIONS, SandboxClient, SandboxRequestError, SandboxTenant, freshTestKey } from './control.js';
export type { ControlMethod, WaitOptions } from './control.js';
export type { InboxDelivery, InboxOptions, WaitInboxOptions, WebhookInbox } from './inbox.js';
export type { WebhookEventType, WebhookPayloadOf } from './webhook-events.js';
export type * from './types.js';
