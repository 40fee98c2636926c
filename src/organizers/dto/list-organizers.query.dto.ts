import { ListLinkedItemsQueryDto } from '../../linked-items';

/** GET /organizers (spec endpoints.md §5.1): the parameters every venue/organizer list has. */
export class ListOrganizersQueryDto extends ListLinkedItemsQueryDto {}
