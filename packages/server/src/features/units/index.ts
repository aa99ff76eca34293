/** What other features use of units: the routes, the import's unit creation and the rights it checks. */
export { unitsRoutes } from './routes';
export { createImportedUnits, createUnitsBatch, type ImportedUnit } from './service';
export { authorizeNewUnit, authorizePipelineGraph } from './policy';
