import { LoggerService } from '@nestjs/common';
import pino, { Logger as Pino } from 'pino';
import { LoggingConfig } from '../config/gateway-config';

type Level = 'debug' | 'info' | 'warn' | 'error' | 'trace';

/**
 * Nest's logger backed by pino, writing to stderr only: in stdio mode stdout
 * belongs to the protocol, so no log line may ever reach it.
 */
export class GatewayLogger implements LoggerService {
  private readonly pino: Pino;

  constructor(
    config: Pick<LoggingConfig, 'level' | 'format'>,
    // Asynchronous: a line goes out at once when stderr is idle, and lines that
    // arrive while a write is under way share the next one; pino writes what is
    // left synchronously when the process exits.
    destination: pino.DestinationStream = pino.destination({ dest: 2, sync: false }),
  ) {
    const transportless = config.format === 'pretty' ? prettyStream(destination) : destination;
    this.pino = pino(
      { level: config.level, base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime },
      transportless,
    );
  }

  log(message: unknown, ...rest: unknown[]): void {
    this.write('info', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }

  /** Nest passes the context (a class name) as the last string argument. */
  private write(level: Level, message: unknown, rest: unknown[]): void {
    if (!this.pino.isLevelEnabled(level)) return;
    const context =
      typeof rest[rest.length - 1] === 'string' ? (rest[rest.length - 1] as string) : undefined;
    const extra = rest.filter(
      (value, index) => !(index === rest.length - 1 && typeof value === 'string'),
    );
    const fields: Record<string, unknown> = context ? { context } : {};
    if (extra.length > 0) fields.details = extra;
    if (message instanceof Error) {
      this.pino[level]({ ...fields, err: message }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      const { msg, ...data } = message as Record<string, unknown>;
      this.pino[level]({ ...fields, ...data }, typeof msg === 'string' ? msg : '');
    } else {
      this.pino[level](fields, String(message));
    }
  }
}

/** A one-line human format for terminals; JSON stays the default for machines. */
function prettyStream(destination: pino.DestinationStream): pino.DestinationStream {
  return {
    write(line: string) {
      const entry = JSON.parse(line) as Record<string, unknown>;
      const { level, time, msg, context, ...rest } = entry;
      delete rest.pid;
      const label = pino.levels.labels[level as number]?.toUpperCase() ?? String(level);
      const tail = Object.keys(rest).length > 0 ? ` ${JSON.stringify(rest)}` : '';
      destination.write(`${text(time)} ${label} [${text(context) || '-'}] ${text(msg)}${tail}\n`);
    },
  };
}

function text(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}
