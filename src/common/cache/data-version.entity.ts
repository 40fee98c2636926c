import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One row: a counter raised by every write that changes what a reader would see. Processes
 * sharing the database compare it to decide whether their read caches are still good.
 */
@Entity({ name: 'data_version' })
export class DataVersionEntity {
  @PrimaryColumn({ name: 'id', type: 'int' })
  id: number;

  @Column({ name: 'version', type: 'int', default: 0 })
  version: number;
}
