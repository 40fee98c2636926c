// A feature that lives only under test/: its own table with a migration
// pair, a change kind, a module with a route. A test app loads it by passing its own list of
// features; no file under src/ names it.
import { Body, Controller, Get, Injectable, Module, Param, Post } from '@nestjs/common';
import { Column, Entity, MigrationInterface, PrimaryGeneratedColumn, QueryRunner } from 'typeorm';
import { API_NAMESPACE, UnitOfWork } from '../../../src/extend';
import type { Feature } from '../../../src/extend';

@Entity({ name: 'test_notes' })
export class NoteEntity {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  @Column({ name: 'body', type: 'varchar', length: 200 })
  body: string;
}

/** Older than some core migrations on purpose: the composition applies them in timestamp order. */
export class TestNotes1795600000000 implements MigrationInterface {
  name = 'TestNotes1795600000000';
  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE TABLE "test_notes" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "body" varchar(200) NOT NULL)');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE "test_notes"');
  }
}

export class TestNotesMysql1795600000000 implements MigrationInterface {
  name = 'TestNotes1795600000000';
  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE TABLE `test_notes` (`id` int NOT NULL AUTO_INCREMENT, `body` varchar(200) NOT NULL, PRIMARY KEY (`id`)) ENGINE=InnoDB');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE `test_notes`');
  }
}

@Injectable()
class NotesService {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  /** A note, written in the unit of work with its change row. */
  create(body: string): Promise<{ id: number; body: string }> {
    return this.unitOfWork.run(async (tx, changes) => {
      const note = await tx.save(tx.create(NoteEntity, { body }));
      changes.record('note', note.id);
      return { id: note.id, body: note.body };
    });
  }
}

@Controller(`${API_NAMESPACE}/test-notes`)
class NotesController {
  constructor(private readonly notes: NotesService) {}

  @Post()
  create(@Body('body') body: string) {
    return this.notes.create(String(body));
  }

  @Get(':id')
  read(@Param('id') id: string) {
    return { id: Number(id) };
  }
}

@Module({ controllers: [NotesController], providers: [NotesService] })
class NotesModule {}

export const NOTES_FEATURE: Feature = {
  name: 'notes',
  modules: [NotesModule],
  entities: [NoteEntity],
  migrations: { sqlite: [TestNotes1795600000000], mysql: [TestNotesMysql1795600000000] },
  changeKinds: [{ type: 'note', state: { table: 'test_notes', columns: ['NULL', "'publish'", 'NULL', 'NULL'] }, hasStatus: false, collection: 'test-notes' }],
};
