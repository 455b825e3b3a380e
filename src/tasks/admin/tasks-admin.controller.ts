import { Delete, Get, HttpCode, Inject, NotFoundException, Param, Query } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
} from '@nestjs/swagger';
import { AdminController } from '../../admin/admin-controller.decorator';
import { GATEWAY_CONFIG } from '../../config/config.constants';
import { GatewayConfig } from '../../config/gateway-config';
import { ArgumentRedactor } from '../../ledger/argument-redactor';
import { TASK_ID_MAX_CHARS } from '../task-access';
import { TaskCancellation } from '../task-cancellation';
import { TaskStore } from '../task.store';
import { parseTasksAdminQuery } from './tasks-admin-query.parser';
import { TasksAdminQuery } from './tasks-admin.query';
import { TaskEntryDto, TaskListDto, toTaskEntry } from './task-entry.dto';

/** Every client's tasks for the operator: what runs, what waits, what ended; and a way to stop one. */
@AdminController('tasks', 'tasks')
export class TasksAdminController {
  // Messages are shown as the ledger keeps them: a secret a tool echoed stays hidden here too.
  private readonly redactor: ArgumentRedactor;

  constructor(
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
    private readonly store: TaskStore,
    private readonly cancellation: TaskCancellation,
  ) {
    this.redactor = new ArgumentRedactor(config.ledger.redact_keys);
  }

  @Get()
  @ApiOperation({
    summary: 'Tasks of every client, newest first, filtered by client and state',
    description: 'Never their arguments nor their results: tasks/get gives those to their client.',
  })
  @ApiOkResponse({ type: TaskListDto })
  @ApiBadRequestResponse({ description: 'A filter is invalid; the message names it' })
  async list(@Query() raw: TasksAdminQuery): Promise<TaskListDto> {
    const filter = parseTasksAdminQuery(raw as Record<string, unknown>);
    const tasks = await this.store.list(filter);
    return { items: tasks.map((task) => toTaskEntry(task, this.redactor)) };
  }

  @Delete(':id')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Request cancellation of a task, as its client would with tasks/cancel',
    description:
      'A task no run has begun ends cancelled at once; a running one is asked to stop and ends ' +
      'cancelled when its tool gives up (cancelRequested shows the request meanwhile). An ended ' +
      'task is left as it is.',
  })
  @ApiParam({ name: 'id', description: 'The taskId' })
  @ApiAcceptedResponse({ description: 'The task after the request', type: TaskEntryDto })
  async cancel(@Param('id') id: string): Promise<TaskEntryDto> {
    const task = id.length > TASK_ID_MAX_CHARS ? undefined : await this.cancellation.request(id);
    if (task === undefined) throw new NotFoundException('No such task (or its TTL has passed)');
    return toTaskEntry(task, this.redactor);
  }
}
