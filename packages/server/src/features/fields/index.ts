/** What other features use of custom fields: the routes, value checks and the query pieces. */
export { fieldsRoutes } from './routes';
export {
  applyFieldChanges,
  checkFieldChanges,
  loadProjectFields,
  unitFieldDefaults,
  type FieldChanges,
  type FieldRow,
} from './service';
export { fieldConditions, fieldSort, type FieldSort } from './query';
