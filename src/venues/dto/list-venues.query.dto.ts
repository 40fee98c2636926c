import { ListLinkedItemsQueryDto } from '../../linked-items';

/** GET /venues (spec endpoints.md §5.1): the parameters every venue/organizer list has. */
export class ListVenuesQueryDto extends ListLinkedItemsQueryDto {}
