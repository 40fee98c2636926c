import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { UsersService } from './users.service';

/** Creates the administrator named by CALENDAR_ADMIN_LOGIN at start, when that login does not exist. */
@Injectable()
export class BootstrapAdminService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Bootstrap');

  constructor(
    private readonly config: AppConfig,
    private readonly users: UsersService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { adminLogin, adminPassword } = this.config;
    if (!adminLogin || !adminPassword) return;
    if (await this.users.findByLogin(adminLogin)) return;
    await this.users.create(adminLogin, 'administrator', adminPassword);
    this.logger.log(`created administrator "${adminLogin}"`);
  }
}
