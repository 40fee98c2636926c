import { Injectable } from '@nestjs/common';
import { ListExtensions } from '../common/pagination';
import type { Taxonomy } from './entities/term.entity';

/**
 * Where modules add parameters to GET /categories and GET /tags (extending.md §1, list
 * parameters): register a ListExtension on the taxonomy's list in onModuleInit.
 */
@Injectable()
export class TermListExtensions {
  readonly category = new ListExtensions();
  readonly tag = new ListExtensions();

  of(taxonomy: Taxonomy): ListExtensions {
    return taxonomy === 'category' ? this.category : this.tag;
  }
}
