import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { UsersService } from './users.service';

/**
 * Creates the administrator named by CALENDAR_ADMIN_LOGIN at start, when that login does not
 * exist; never overwrites the password of one that does.
 */
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
    const existing = await this.users.findByLogin(adminLogin);
    if (existing) {
      // The stored password wins (it may have been changed on purpose with user:password);
      // a configuration that says otherwise is probably stale, so say so once.
      if (!(await this.users.acceptsPassword(existing.id, adminPassword))) {
        this.logger.warn(
          `CALENDAR_ADMIN_PASSWORD does not match the stored password of "${adminLogin}"; the stored one stays in force (change it with: npm run cli -- user:password ${adminLogin})`,
        );
      }
      return;
    }
    await this.users.create(adminLogin, 'administrator', adminPassword);
    this.logger.log(`created administrator "${adminLogin}"`);
  }
}
