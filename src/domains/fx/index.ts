import type { DomainModule } from '../module.js';
import { fxRoutes } from './fx.routes.js';
import { fxSimulators } from './fx.simulators.js';

export const fxModule: DomainModule = { routes: fxRoutes, simulators: fxSimulators };
