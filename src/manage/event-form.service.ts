import { Injectable } from '@nestjs/common';
import type { Actor } from '../common/auth';
import { canDelete, canEdit } from '../common/auth';
import { tagOfJson } from '../common/http/preconditions';
import { AppConfig } from '../config/app-config';
import { EventPresentation, EventDeleter, type EventEntity, EventWriter, FORM_ORIGIN, validatedEventInput } from '../events';
import { type EventFormContext, EventFormHooks } from './event-form-hooks';
import { type EventFormValues, writeInput } from './event-form-values';

type Json = Record<string, unknown>;

/** An event as its form opens it: the row, its representation (the single GET's) and its version (that GET's ETag; none in the trash). */
export interface OpenedEvent {
  entity: EventEntity;
  body: Json;
  version: string;
  mayDelete: boolean;
}

/**
 * What the event form reads and writes, through the API's own services: the event as its
 * single GET shows it (and that GET's ETag as the form's version), and the writes — create,
 * update with the version as If-Match, trash, restore — with the signed-in actor, so that a
 * form's save is the API's write (with what the form hooks' fields and sections add to it).
 * What the form offers to choose from is EventFormPickers'.
 */
@Injectable()
export class EventFormService {
  private zoneList: string[] | undefined;

  constructor(
    private readonly presentation: EventPresentation,
    private readonly writer: EventWriter,
    private readonly deleter: EventDeleter,
    private readonly hooks: EventFormHooks,
    private readonly config: AppConfig,
  ) {}

  /** The site's zone, the default of a new event. */
  get siteZone(): string {
    return this.config.timezone;
  }

  /** The event if the actor may edit it (else the API's 404 / 403, shown as a page). */
  async open(actor: Actor, id: number): Promise<OpenedEvent> {
    const entity = await this.presentation.requireEvent(id);
    this.presentation.assertMay(canEdit, actor, entity);
    const body = (await this.presentation.present([entity], { jsonLd: true, actor }))[0];
    // The tag If-Match is compared with (EventPresentation.singleBody): the single GET's body; a trashed event has none.
    const version = entity.status === 'trash' ? '' : tagOfJson(body);
    return { entity, body, version, mayDelete: canDelete(actor, this.presentation.asOwned(entity)) };
  }

  /** Saves the form as the API's create or update: the same input, checks and write. Answers the event's id. */
  async save(actor: Actor, stored: EventEntity | null, values: EventFormValues, version: string, ctx: EventFormContext): Promise<number> {
    const input = writeInput(values, stored, this.hooks.all());
    for (const question of this.hooks.questions('save', ctx)) input[question.name] = values.answers[question.name] ?? question.initial;
    this.hooks.readSections(values.sections, input, ctx);
    const { dto, raw } = validatedEventInput(stored === null, input);
    const saved = stored
      ? await this.writer.updateById(actor, stored.id, dto, version || undefined, raw, FORM_ORIGIN)
      : await this.writer.create(actor, dto, raw, FORM_ORIGIN);
    const body = (saved as { body?: unknown }).body ?? saved;
    return Number((body as Json).id);
  }

  /** To the trash, as DELETE /events/{id} with If-Match (and the answers to the sections' questions as its parameters). */
  async trash(actor: Actor, id: number, version: string, answers: Json): Promise<void> {
    await this.deleter.removeById(actor, id, false, version || undefined, answers, FORM_ORIGIN);
  }

  /** Out of the trash, as an update that sends the status it had before (beyond.md #2), or draft. */
  async restore(actor: Actor, entity: EventEntity): Promise<void> {
    const input = { status: entity.statusBeforeTrash ?? 'draft' };
    const { dto, raw } = validatedEventInput(false, input);
    await this.writer.updateById(actor, entity.id, dto, undefined, raw, FORM_ORIGIN);
  }

  /** The IANA zones the form offers (the runtime's list, UTC and the event's own when it is another). */
  zones(current: string): string[] {
    this.zoneList ??= ['UTC', ...Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC')];
    return current !== '' && !this.zoneList.includes(current) ? [current, ...this.zoneList] : this.zoneList;
  }
}
