import { LoggerService } from '@nestjs/common';
import pino, { Logger as Pino } from 'pino';
import { LoggingConfig } from '../config/gateway-config';
import { appendRequestIds, requestIds } from './request-ids.mixin';

type Level = 'debug' | 'info' | 'warn' | 'error' | 'trace';

/**
 * Nest's logger backed by pino, writing to stderr only: in stdio mode stdout
 * belongs to the protocol, so no log line may ever reach it. A line written
 * while serving a request carries that request's ids (request-ids.mixin.ts).
 */
export class GatewayLogger implements LoggerService {
  private readonly pino: Pino;
  private readonly children = new Map<string, Pino>();

  /**
   * `destination` defaults to stderr through sonic-boom, asynchronous; pino
   * writes what it still holds synchronously when the process exits.
   */
  constructor(
    config: Pick<LoggingConfig, 'level' | 'format'>,
    destination: pino.DestinationStream = pino.destination({ dest: 2, sync: false }),
  ) {
    this.pino = pino(
      {
        level: config.level,
        base: { pid: process.pid },
        timestamp: pino.stdTimeFunctions.isoTime,
        mixin: requestIds,
        mixinMergeStrategy: appendRequestIds,
      },
      config.format === 'pretty' ? prettyStream(destination) : destination,
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
    const last = rest.length - 1;
    const tail = rest[last];
    const context = typeof tail === 'string' ? tail : undefined;
    const logger = context === undefined ? this.pino : this.childFor(context);
    // Nest's Logger.error() passes an undefined stack when it has none.
    const details = (context === undefined ? rest : rest.slice(0, last)).filter(
      (value) => value !== undefined,
    );
    logger[level](recordOf(message, details));
  }

  /** One child per context (a class name), so its binding is serialized once. */
  private childFor(context: string): Pino {
    let child = this.children.get(context);
    if (!child) {
      child = this.pino.child({ context });
      this.children.set(context, child);
    }
    return child;
  }
}

/**
 * The fields of one line, its msg first (pino keeps a record's own key
 * order), and any arguments between the message and the context as details.
 */
function recordOf(message: unknown, details: unknown[]): Record<string, unknown> {
  const extra = details.length > 0 ? { details } : {};
  if (message instanceof Error) return { msg: message.message, ...extra, err: message };
  // Most lines already start with their msg: they go out as they are (never changed by pino).
  if (details.length === 0 && startsWithMsg(message)) return message;
  if (typeof message === 'object' && message !== null) {
    const { msg, ...data } = message as Record<string, unknown>;
    return { msg: typeof msg === 'string' ? msg : '', ...extra, ...data };
  }
  return { msg: String(message), ...extra };
}

/** A plain record whose first key is a string msg: already in the shape of a line. */
function startsWithMsg(message: unknown): message is Record<string, unknown> {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return false;
  for (const key in message) {
    return key === 'msg' && typeof (message as { msg: unknown }).msg === 'string';
  }
  return false;
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
