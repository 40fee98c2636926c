export { OrganizersModule } from './organizers.module';
export { OrganizersService } from './organizers.service';
export { OrganizerEntity } from './organizer.entity';
export { OrganizerExtensions } from './organizer-extensions';
