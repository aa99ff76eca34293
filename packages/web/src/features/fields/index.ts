/** Custom fields (docs/custom-fields.md): the unit screen's card, values as the matrix shows them, the definitions. */
export { UnitFields } from './components/unit-fields';
export { FieldValue } from './components/field-value';
export { fieldsQueryOptions, unitFields, useFields } from './api';
