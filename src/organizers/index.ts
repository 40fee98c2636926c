export { OrganizersModule } from './organizers.module';
export { OrganizersService } from './organizers.service';
export { OrganizerEntity } from './organizer.entity';
