// Where webhooks may go. Under the `public` policy only public unicast addresses are reached:
// literal addresses are checked when the URL is set and again before each attempt, and names are
// checked inside the connection's own DNS lookup, on the very addresses the socket then connects
// to, so an answer that changes between a check and the connect cannot get past it. Address
// classes come from ipaddr.js. Under `any` (the default) every address is reached, loopback
// included, as local runs and CI need.
import { lookup as dnsLookup } from 'node:dns';
import { createRequire } from 'node:module';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Agent as UndiciAgent, Dispatcher } from 'undici';

export type TargetPolicy = 'any' | 'public';

// The ports the Fetch standard blocks, taken from the undici fetch that sends the webhooks, so
// what PUT refuses is exactly what an attempt would fail on.
const { badPortsSet } = createRequire(import.meta.url)('undici/lib/web/fetch/constants.js') as { badPortsSet: ReadonlySet<string> };

const POLICY_NOTE = 'this sandbox sends webhooks only to public addresses (--webhook-targets public)';

const KINDS: Record<string, string> = {
  unspecified: 'the unspecified address, which reaches this host',
  loopback: 'a loopback address',
  private: 'a private address',
  uniqueLocal: 'a private (unique local) address',
  linkLocal: 'a link-local address',
  carrierGradeNat: 'a shared (carrier-grade NAT) address',
};

/** What makes an IP address no public target (e.g. "a loopback address"); undefined when it is one. */
export function addressProblem(ip: string): string | undefined {
  const addr = ipaddr.process(ip); // an IPv4-mapped IPv6 address is judged as its IPv4 address
  const range = addr.range();
  if (addr.kind() === 'ipv6') {
    const bytes = addr.toByteArray();
    const v4 = bytes.slice(12).join('.');
    // NAT64 carries an IPv4 address in its last 32 bits; ::a.b.c.d is the deprecated IPv4-compatible form
    if (range === 'rfc6052') return addressProblem(v4);
    if (range === 'unicast' && bytes.slice(0, 12).every((b) => b === 0)) return 'a deprecated IPv4-compatible address';
  }
  if (range === 'unicast') return undefined;
  return KINDS[range] ?? `a special-purpose address (${range}), not a public one`;
}

const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/** Why no HTTP client would connect to this URL's port, in words for a 400; undefined when one would. */
export function portProblem(url: URL): string | undefined {
  // Port 0 names no port: nothing listens there, and a connection to it fails at once.
  if (url.port === '0') return 'uses port 0, which no server listens on: use the port the receiver listens on, such as 443 or 8080';
  if (!badPortsSet.has(url.port)) return undefined;
  return `uses port ${url.port}, which HTTP clients refuse to connect to (a "bad port" of the Fetch standard): use another port, such as 443 or 8080`;
}

/** Why the policy refuses this URL's literal address, in words for a 400; undefined when it does not. */
export function addressRefusal(url: URL, policy: TargetPolicy): string | undefined {
  const host = hostOf(url);
  const problem = policy === 'public' && isIP(host) ? addressProblem(host) : undefined;
  return problem && `points at ${host}, ${problem}; ${POLICY_NOTE}: use a public host name or address`;
}

/** Raised inside the connection's lookup when a name resolves to an address the policy refuses. */
export class TargetRefused extends Error {
  readonly code = 'ETARGETREFUSED';
}

const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '');
    for (const a of addresses) {
      const problem = addressProblem(a.address);
      if (problem) return callback(new TargetRefused(`Refused: ${hostname} resolves to ${a.address}, ${problem}; ${POLICY_NOTE}`), '');
    }
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
};

export interface Targets {
  /** Connections for attempts; undefined uses undici's default. */
  dispatcher?: Dispatcher;
  /** Why an attempt to this URL is refused before any connection; undefined when it may go. */
  refusal(url: string): string | undefined;
  /** Release the connections kept open for attempts. */
  close?(): Promise<void>;
}

export function targetsFor(policy: TargetPolicy): Targets {
  if (policy === 'any') return { refusal: () => undefined };
  // Made on the first attempt: loading undici at start would slow every start-up.
  let agent: UndiciAgent | undefined;
  return {
    get dispatcher(): Dispatcher {
      const { Agent } = createRequire(import.meta.url)('undici') as typeof import('undici');
      return (agent ??= new Agent({ connect: { lookup: publicOnlyLookup } }));
    },
    close: async () => agent?.close(),
    refusal: (value) => {
      const host = hostOf(new URL(value));
      const problem = isIP(host) ? addressProblem(host) : undefined;
      return problem && `Refused: ${host} is ${problem}; ${POLICY_NOTE}`;
    },
  };
}
