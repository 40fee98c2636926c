export { OrganizersModule } from './organizers.module';
export { ORGANIZER_TOKENS } from './organizer-kind';
export { OrganizerEntity } from './organizer.entity';
export { EventOrganizerEntity } from './event-organizer.entity';
export { OrganizersRepository } from './organizers.repository';
export { OrganizerDto, OrganizerListDto } from './dto/organizer-response.dto';
export { CreateOrganizerDto } from './dto/write-organizer.dto';
export { OrganizerExtensions } from './organizer-extensions';
export { UpdateOrganizerDto } from './dto/write-organizer.dto';
