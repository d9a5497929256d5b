// Every domain of the API, in the order their routes are mounted. Each exports one description per
// resource it holds; the scenario format, the event names, the simulators, the resource listing
// and the job table are derived from this list (app.ts), never written again.
import type { Resource } from '../engine/registry/resource.js';
import type { DomainModule } from './module.js';
import { fxDomain } from './fx/index.js';
import { liquidityDomain } from './liquidity/index.js';
import { payoutsDomain } from './payouts/index.js';
import { quotesDomain } from './quotes/index.js';
import { referenceDomain } from './reference/index.js';
import { transfersDomain } from './transfers/index.js';
import { walletPayoutsDomain } from './wallet-payouts/index.js';
import { withdrawalsDomain } from './withdrawals/index.js';

export const domains = [
  referenceDomain,
  payoutsDomain,
  walletPayoutsDomain,
  withdrawalsDomain,
  transfersDomain,
  quotesDomain,
  liquidityDomain,
  fxDomain,
] as const satisfies readonly DomainModule[];

/** The name of a resource of the domain list: payout, wallet_payout, ... */
export type ResourceName = (typeof domains)[number]['resources'][number]['name'];

/** Every resource of a domain list, in its order. */
export const resourcesOf = (list: readonly DomainModule[]): Resource[] => list.flatMap((d) => d.resources ?? []);

const byName = new Map(resourcesOf(domains).map((r) => [r.name, r] as const));

/** The description of one of the domain list's resources. */
export const resourceNamed = (name: ResourceName): Resource => byName.get(name)!;
