import { ApiProperty } from '@nestjs/swagger';
import { ArgumentRedactor } from '../../ledger/argument-redactor';
import { LEDGER_ERROR_MESSAGE_MAX } from '../../ledger/ledger.constants';
import { TaskRecord } from '../task-record';
import { TASK_STATUSES, TaskStatus } from '../tasks.constants';

const MESSAGE_DESCRIPTION = `with the values of ledger.redact_keys keys redacted, at most ${LEDGER_ERROR_MESSAGE_MAX} characters`;

export class TaskErrorDto {
  @ApiProperty({ description: 'JSON-RPC error code', type: Number })
  code!: number;

  @ApiProperty({ description: `The error message, ${MESSAGE_DESCRIPTION}`, type: String })
  message!: string;
}

/** One task as the admin API shows it: its life, never its arguments nor its result. */
export class TaskEntryDto {
  @ApiProperty({ type: String })
  taskId!: string;

  @ApiProperty({ type: String })
  clientId!: string;

  @ApiProperty({ description: 'The tool the task runs', type: String })
  tool!: string;

  @ApiProperty({ enum: TASK_STATUSES })
  status!: TaskStatus;

  @ApiProperty({
    description: `Progress, "queued", or why it ended, ${MESSAGE_DESCRIPTION}`,
    type: String,
    nullable: true,
  })
  statusMessage!: string | null;

  @ApiProperty({ description: 'ISO 8601 (UTC)', type: String })
  createdAt!: string;

  @ApiProperty({ description: 'ISO 8601 (UTC)', type: String })
  lastUpdatedAt!: string;

  @ApiProperty({
    description: 'When its first run began, ISO 8601 (UTC); null while queued',
    type: String,
    nullable: true,
  })
  startedAt!: string | null;

  @ApiProperty({ description: 'ISO 8601 (UTC); null until it ends', type: String, nullable: true })
  finishedAt!: string | null;

  @ApiProperty({
    description: 'Runs begun (more than one when a process running it died)',
    type: Number,
  })
  attempts!: number;

  @ApiProperty({
    description: 'The replica (host:pid) running it, or that ran it last',
    type: String,
    nullable: true,
  })
  runner!: string | null;

  @ApiProperty({
    description: 'Budget units charged; null until it ends',
    type: Number,
    nullable: true,
  })
  cost!: number | null;

  @ApiProperty({ description: 'Trace id of the tools/call that created it', type: String })
  traceId!: string;

  @ApiProperty({
    description: 'Cancellation was requested and the task has not ended yet, or ended cancelled',
    type: Boolean,
  })
  cancelRequested!: boolean;

  @ApiProperty({
    description: 'The JSON-RPC error of a failed task (its data left out); null otherwise',
    type: TaskErrorDto,
    nullable: true,
  })
  error!: TaskErrorDto | null;
}

export class TaskListDto {
  @ApiProperty({ description: 'Newest first', type: [TaskEntryDto] })
  items!: TaskEntryDto[];
}

export function toTaskEntry(task: TaskRecord, redactor: ArgumentRedactor): TaskEntryDto {
  const message = (text: string) => redactedMessage(text, redactor);
  const time = (epochMs: number | undefined) =>
    epochMs === undefined ? null : new Date(epochMs).toISOString();
  return {
    taskId: task.taskId,
    clientId: task.clientId,
    tool: task.tool,
    status: task.status,
    statusMessage: task.statusMessage === undefined ? null : message(task.statusMessage),
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.lastUpdatedAt).toISOString(),
    startedAt: time(task.startedAt),
    finishedAt: time(task.finishedAt),
    attempts: task.attempts,
    runner: task.runner ?? null,
    cost: task.cost ?? null,
    traceId: task.origin.traceId,
    cancelRequested: task.cancelRequested,
    error:
      task.status === 'failed' && task.error !== undefined
        ? { code: task.error.code, message: message(task.error.message) }
        : null,
  };
}

/** As the ledger keeps error messages: redacted before the cut, so a cut never leaves half a secret. */
function redactedMessage(text: string, redactor: ArgumentRedactor): string {
  const redacted = redactor.redactText(text.slice(0, 2 * LEDGER_ERROR_MESSAGE_MAX));
  if (redacted.length <= LEDGER_ERROR_MESSAGE_MAX) return redacted;
  return `${redacted.slice(0, LEDGER_ERROR_MESSAGE_MAX - 1)}…`;
}
