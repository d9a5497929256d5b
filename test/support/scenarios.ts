// The scenario format of the real domain list, and the engine's scenario functions bound to it, for
// tests that check, load or resolve scenario documents directly.
import { scenarioFormatOf } from '../../src/app.js';
import { resourceNamed, resourcesOf, domains, type ResourceName } from '../../src/domains/index.js';
import type { LifecycleInfo } from '../../src/engine/registry/lifecycle.js';
import * as load from '../../src/engine/scenario/scenario.load.js';
import * as registry from '../../src/engine/scenario/scenario.registry.js';

export const format = scenarioFormatOf();
export const checkScenario = (input: unknown, source: string) => load.checkScenario(input, source, format);
export const parseScenario = (text: string, source: string) => load.parseScenario(text, source, format);
export const validateScenarioFile = (file: string) => load.validateScenarioFile(file, format);
export const loadBundled = () => registry.loadBundled(format);
export const loadRegistry = (spec: string) => registry.ScenarioRegistry.load(spec, format);

/** The lifecycle of one resource of the domain list. */
export const lifecycle = (name: ResourceName): LifecycleInfo => resourceNamed(name).lifecycle!;

/** Every resource with a lifecycle, in the domain list's order. */
export const LIFECYCLES: readonly LifecycleInfo[] = resourcesOf(domains).flatMap((r) => (r.lifecycle ? [r.lifecycle] : []));
