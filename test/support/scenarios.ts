// The scenario format of the real domain list, and the engine's scenario functions bound to it, for
// tests that check, load or resolve scenario documents directly; and the checks of the scenario
// format that hold for any domain list.
import { describe, expect, it } from 'vitest';
import { scenarioFormatOf } from '../../src/app.js';
import { resourceNamed, resourcesOf, domains, type ResourceName } from '../../src/domains/index.js';
import type { DomainModule } from '../../src/domains/module.js';
import { webhookScenarioSections } from '../../src/domains/webhooks/index.js';
import { DEFAULT_TTL } from '../../src/engine/registry/behaviour.js';
import type { LifecycleInfo } from '../../src/engine/registry/lifecycle.js';
import * as load from '../../src/engine/scenario/scenario.load.js';
import * as registry from '../../src/engine/scenario/scenario.registry.js';
import type { ScenarioSection } from '../../src/engine/scenario/scenario.schema.js';
import { createTestApp } from './app.js';

export const format = scenarioFormatOf();
export const checkScenario = (input: unknown, source: string) => load.checkScenario(input, source, format);
export const parseScenario = (text: string, source: string) => load.parseScenario(text, source, format);
export const validateScenarioFile = (file: string) => load.validateScenarioFile(file, format);
export const loadBundled = () => registry.loadBundled(format);
export const loadRegistry = (spec: string) => registry.ScenarioRegistry.load(spec, format);

/** The lifecycle of one resource of the domain list. */
export const lifecycle = (name: ResourceName): LifecycleInfo => resourceNamed(name).lifecycle!;

/** Every resource with a lifecycle of a domain list, in its order. */
export const lifecyclesOf = (list: readonly DomainModule[]): LifecycleInfo[] => resourcesOf(list).flatMap((r) => (r.lifecycle ? [r.lifecycle] : []));

/** Every resource with a lifecycle, in the domain list's order. */
export const LIFECYCLES: readonly LifecycleInfo[] = lifecyclesOf(domains);

/**
 * The checks of the scenario format of a domain list: test/scenarios/schema.test.ts runs them on the
 * real list, test/adding-a-resource.test.ts on the list with the doc's refund added. The bundled
 * files need no edit for a new resource: a section default.yaml leaves out takes the lifecycle's
 * defaults (its durations, the default ttl), and one it writes must say exactly those.
 */
export function describeScenarioFormat(title: string, list: readonly DomainModule[]): void {
  const listFormat = scenarioFormatOf(list);
  const lifecycles = lifecyclesOf(list);

  describe(title, () => {
    it('accepts every bundled file, each with a description', () => {
      const bundled = registry.loadBundled(listFormat);
      expect(bundled.has('default')).toBe(true);
      for (const s of bundled.values()) expect(s.description, s.name).toMatch(/\w.{60,}/);
    });

    it("keeps default.yaml to the lifecycles' defaults, for the sections it writes", () => {
      const doc = registry.loadBundled(listFormat).get('default')!.doc;
      for (const { name, durations, ttl } of lifecycles) {
        const part = doc[name] as ScenarioSection | undefined;
        if (part?.timing !== undefined) expect(part.timing, name).toEqual(durations);
        if (ttl !== undefined && part?.ttl !== undefined) expect(part.ttl, name).toBe(DEFAULT_TTL);
      }
    });

    it("publishes a section per lifecycle in the list's order, then the other modules' sections", async () => {
      const t = await createTestApp({ domains: list });
      const res = await t.call('GET', '/_sandbox/scenario.schema.json', { key: null });
      const sections = [...list.flatMap((d) => Object.keys(d.scenario ?? {})), ...Object.keys(webhookScenarioSections)];
      expect(Object.keys(res.body.properties)).toEqual(['name', 'description', 'magicValues', ...lifecycles.map((l) => l.name), ...sections, 'faults']);
      for (const l of lifecycles.filter((l) => l.outcomeStates.length > 0)) {
        expect(res.body.properties[l.name].properties.outcomes.items.properties.status.enum, l.name).toEqual(l.outcomeStates);
      }
    });
  });
}
