import type { LoggerService } from '@nestjs/common';
import pino, { Logger } from 'pino';
import type { LogLevel } from '../../config/app-config';

/** JSON lines on stdout; the Authorization header is redacted wherever it could appear. */
/** JSON lines on stdout, or into `destination` (tests read what an operator would see). */
export function createLogger(level: LogLevel, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: undefined,
    redact: { paths: ['req.headers.authorization', 'headers.authorization', 'authorization'], censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return destination ? pino(options, destination) : pino(options);
}

/** Routes Nest's own log calls (bootstrap, module init) into the same JSON stream. */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string) {
    this.logger.info({ context }, String(message));
  }
  /** Nest's own failures (start-up, the ORM's connection) say what failed; the stack only at debug. */
  error(message: unknown, trace?: string, context?: string) {
    this.logger.error(this.logger.isLevelEnabled('debug') ? { context, trace } : { context }, String(message).split('\n')[0]);
  }
  warn(message: unknown, context?: string) {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    this.logger.trace({ context }, String(message));
  }
}
