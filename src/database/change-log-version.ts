import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CommittedVersion } from '../common/cache/data-version.service';
import { logCounter } from './change-log';

/** The data version every process sees (DataVersion): the change log's counter, which every write raises in its transaction. */
@Injectable()
export class ChangeLogVersion extends CommittedVersion {
  constructor(@InjectDataSource() private readonly db: DataSource) {
    super();
  }

  read(): Promise<string> {
    return logCounter(this.db);
  }
}
