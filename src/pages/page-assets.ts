import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';

/** Where the templates and the stylesheet live (copied beside the compiled code by `nest build`). */
export const VIEWS_DIR = join(__dirname, 'views');
const STYLESHEET = join(__dirname, 'assets', 'calendar.css');

/** The pages' stylesheet, read once, named after a hash of its content (`calendar.1a2b3c4d5e.css`). */
@Injectable()
export class PageAssets {
  readonly stylesheet: { file: string; url: string; body: Buffer };

  constructor(config: AppConfig) {
    const body = readFileSync(STYLESHEET);
    const file = `calendar.${createHash('sha256').update(body).digest('hex').slice(0, 10)}.css`;
    this.stylesheet = { file, url: `${config.publicUrl}/assets/${file}`, body };
  }
}
