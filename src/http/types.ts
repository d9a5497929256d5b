import type { Tenant } from '../engine/tenancy/tenant.js';
import type { Streams } from './streams.js';

export interface AppEnv {
  Variables: {
    tenant: Tenant;
    /** The body the response was built from, kept by reference for the journal. */
    responseBody: unknown;
    /** Set by routers whose errors are not JSON (the FX interface answers in XML). */
    renderError: ((err: import('../kernel/errors.js').SandboxError) => Response) | undefined;
    /** The app's open event streams, which a shutdown ends. */
    streams: Streams;
    /** Set while the request holds its tenant (a stored tenant, locked on a shared store) until it ends. */
    tenantHeld: boolean | undefined;
    /** The scenario fault that struck this request, for the journal: which rule, and what the
     * sandbox's own answer was (null when the request never ran) before the fault replaced it. */
    fault: (import('../engine/requests/types.js').JournalFault & { status: number | null; sent: number | 'dropped' | 'timeout' }) | undefined;
    /** The field a drift fault changed in the answer; null when the answer had none its form could change. */
    drifted: string | null | undefined;
    /** The status the request's own answer had, when a drop or timeout fault ran it first. */
    faultStatus: number | undefined;
    /** The error code the answer carried, when it was an error (the readiness observations read it). */
    errorCode: string | undefined;
    /** Set with errorCode when the error refused the request body as its schema says (SandboxError.bodyInvalid). */
    bodyInvalid: boolean | undefined;
    /** Ties the callbacks the request registers to it (http/request-scope.ts). */
    scope: import('../kernel/request-scope.js').RequestScope | undefined;
    /** What the sandbox warns of about the request (unknown body fields): X-Sandbox-Warning and the journal. */
    warnings: string[] | undefined;
    /** Runs work that waits on the world outside the sandbox (a receiver that may call back with
     * the key) with the tenant let go: on a shared store the request's session ends first and a new
     * one begins after. Unset when the request holds nothing (the memory store). */
    outside: (<T>(work: () => Promise<T>) => Promise<T>) | undefined;
    /** Work to do once the request has let its tenant go (a fault's wait), so it holds no lock. */
    afterRelease: (() => Promise<void>) | undefined;
    /** A fault's wait when the request holds no tenant: done once the journal has recorded the request. */
    afterJournal: (() => Promise<void>) | undefined;
  };
}
