export { ImportModule } from './import.module';
export { ImportedRecordEntity } from './imported-record.entity';
export type { ImportKind } from './imported-record.entity';
export { ImportedRecordsRepository } from './imported-records.repository';
export type { ImportedRecord } from './imported-records.repository';
export { ImportWriter, ImportRecordError, describeWpError } from './import-writer';
export type { ImportOutcome, ImportResult, ImportTarget, ImportWriteOptions } from './import-writer';
export { ImportReport, IMPORT_KINDS } from './import-report';
export type { ReportStream } from './import-report';
