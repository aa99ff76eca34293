/** What the rest of the app may use of the units feature (docs/architecture.md §Layers: features talk through exports). */
export { taskChanged, unitKeys, unitQueryOptions } from './api';
export { UnitCrumbs } from './components/unit-crumbs';
