/** The generic record loader (docs/rules.md §Web) every record screen uses. */
export {
  parseRecordId,
  useRecord,
  type TRecord,
  type TRecordOptions,
  type TRecordStatus,
  type TSaveTarget,
} from './use-record';
export { RecordDeleteButton, RecordView } from './record-view';
