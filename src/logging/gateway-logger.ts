import { LoggerService } from '@nestjs/common';
import { writeSync } from 'node:fs';
import pino, { Logger as Pino } from 'pino';
import { LoggingConfig } from '../config/gateway-config';
import { FlatRecordFormatter } from './flat-record.formatter';
import { LineBlockStream } from './line-block.stream';

type Level = 'debug' | 'info' | 'warn' | 'error' | 'trace';

/**
 * Bytes of log lines gathered before one write to stderr. Each block is an
 * asynchronous write on libuv's thread pool (a thread hand-off and a wake-up
 * of the event loop when it is done): with a decision line per call, 4 KiB
 * blocks cost about 4 us of CPU per call at 20,000 calls/s more than 64 KiB
 * ones (measured over stdio, 100 calls in flight).
 */
const LOG_BUFFER_BYTES = 64 * 1024;
/** The longest a line waits in that buffer. */
const LOG_FLUSH_INTERVAL_MS = 100;
/**
 * Flushes after the last line before the timer rests: one hands the last
 * block to sonic-boom, which writes it once any write under way is done.
 */
const LOG_IDLE_FLUSHES = 1;

/**
 * Nest's logger backed by pino, writing to stderr only: in stdio mode stdout
 * belongs to the protocol, so no log line may ever reach it.
 */
export class GatewayLogger implements LoggerService {
  private readonly pino: Pino;
  private readonly children = new Map<string, Pino>();
  /** Where pino writes, and where flat records are written directly (the same line, built here). */
  private readonly destination: pino.DestinationStream;
  private readonly time = isoTimeOncePerMillisecond();
  private readonly flat = new FlatRecordFormatter();
  private readonly pidBinding = `,"pid":${process.pid}`;
  /** Flushes of the stderr buffer since the last line; it stops after LOG_IDLE_FLUSHES. */
  private flushesSinceLine = LOG_IDLE_FLUSHES;

  /** `destination` defaults to stderr, buffered (see bufferedStderr). */
  constructor(
    config: Pick<LoggingConfig, 'level' | 'format'>,
    destination?: pino.DestinationStream,
  ) {
    destination ??= this.bufferedStderr();
    this.destination = config.format === 'pretty' ? prettyStream(destination) : destination;
    this.pino = pino(
      { level: config.level, base: { pid: process.pid }, timestamp: this.time },
      this.destination,
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

  /**
   * stderr, written asynchronously in blocks of LOG_BUFFER_BYTES, or what
   * has gathered every LOG_FLUSH_INTERVAL_MS: a governance decision is logged
   * for every call, and a write per line cost a system call and an event-loop
   * wake-up per call. Lines gather in a LineBlockStream (an array, joined
   * once per block) and sonic-boom writes the blocks; both write what is left
   * synchronously when the process exits. A process killed outright loses at
   * most that last moment of lines (the ledger, not the log, is the record of
   * calls).
   */
  private bufferedStderr(): pino.DestinationStream {
    const stderr = pino.destination({ dest: 2, sync: false });
    const blocks = new LineBlockStream(
      {
        write: (block) => stderr.write(block),
        flushSync: () => stderr.flushSync(),
        writeSync: (block) => writeAllSync(2, block),
      },
      LOG_BUFFER_BYTES,
    );
    const flush = setInterval(() => {
      if (this.flushesSinceLine >= LOG_IDLE_FLUSHES) return;
      this.flushesSinceLine++;
      try {
        blocks.flush();
      } catch {
        // Closed at exit, after the last lines were written.
        clearInterval(flush);
      }
    }, LOG_FLUSH_INTERVAL_MS);
    flush.unref();
    return blocks;
  }

  /** Nest passes the context (a class name) as the last string argument. */
  private write(level: Level, message: unknown, rest: unknown[]): void {
    if (!this.pino.isLevelEnabled(level)) return;
    this.flushesSinceLine = 0;
    const last = rest.length - 1;
    const tail = rest[last];
    const context = typeof tail === 'string' ? tail : undefined;
    const logger = context === undefined ? this.pino : this.childFor(context);
    const extra = context === undefined ? rest : rest.slice(0, last);
    const fields: Record<string, unknown> = extra.length > 0 ? { details: extra } : {};
    if (message instanceof Error) {
      logger[level]({ ...fields, err: message }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      const record = message as Record<string, unknown>;
      if (extra.length === 0 && typeof record.msg === 'string') {
        // The common line (an object with its msg): written as pino would, or by pino itself.
        if (!this.wroteFlat(level, context, record)) logger[level](record);
        return;
      }
      const { msg, ...data } = record;
      logger[level]({ ...fields, ...data }, typeof msg === 'string' ? msg : '');
    } else {
      logger[level](fields, String(message));
    }
  }

  /**
   * Writes a flat record (see FlatRecordFormatter) without pino's general
   * serializer: the same text pino would write, level, time and the
   * logger's bindings (pid, context) first, as pino puts them.
   */
  private wroteFlat(
    level: Level,
    context: string | undefined,
    record: Record<string, unknown>,
  ): boolean {
    const fields = this.flat.fields(record);
    if (fields === undefined) return false;
    const head = `{"level":${this.pino.levels.values[level]}`;
    this.destination.write(`${head}${this.time()}${this.bindingsOf(context)}${fields}}\n`);
    return true;
  }

  /** The base and child bindings as pino writes them: `,"pid":N` and the context. */
  private bindingsOf(context: string | undefined): string {
    if (context === undefined) return this.pidBinding;
    return `${this.pidBinding},"context":${this.flat.quoted(context)}`;
  }

  /** Children carry their context pre-serialized; one per context (a class name), made once. */
  private childFor(context: string): Pino {
    let child = this.children.get(context);
    if (!child) {
      child = this.pino.child({ context });
      this.children.set(context, child);
    }
    return child;
  }
}

/** Longest wait for a full pipe to take the last lines at exit (EAGAIN on a non-blocking stderr). */
const EXIT_WRITE_PATIENCE_MS = 1000;
const EXIT_WRITE_RETRY_MS = 10;

/** All of `text` onto `fd`, synchronously; a full pipe is retried for a moment, as sonic-boom does. */
function writeAllSync(fd: number, text: string): void {
  let rest = Buffer.from(text, 'utf8');
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  for (let waited = 0; rest.length > 0;) {
    try {
      rest = rest.subarray(writeSync(fd, rest));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if ((code !== 'EAGAIN' && code !== 'EBUSY') || waited >= EXIT_WRITE_PATIENCE_MS) throw err;
      Atomics.wait(sleeper, 0, 0, EXIT_WRITE_RETRY_MS);
      waited += EXIT_WRITE_RETRY_MS;
    }
  }
}

/**
 * pino's ISO timestamp (`,"time":"..."`), made once per millisecond: under
 * load many lines share a millisecond, and each would otherwise build a Date
 * and its ISO text.
 */
export function isoTimeOncePerMillisecond(now: () => number = Date.now): () => string {
  let lastMs = -1;
  let lastText = '';
  return () => {
    const ms = now();
    if (ms !== lastMs) {
      lastMs = ms;
      lastText = `,"time":"${new Date(ms).toISOString()}"`;
    }
    return lastText;
  };
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
