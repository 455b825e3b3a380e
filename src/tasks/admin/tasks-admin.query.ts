import { ApiPropertyOptional } from '@nestjs/swagger';
import { TASK_STATUSES, TaskStatus } from '../tasks.constants';

export const TASKS_PAGE_DEFAULT = 50;
export const TASKS_PAGE_MAX = 100;
/** Longer than any client id the gateway accepts, so a longer filter is a mistake, not a miss. */
export const CLIENT_FILTER_MAX_CHARS = 256;

/** Query string of GET /admin/tasks, as documented; parseTasksAdminQuery validates it. */
export class TasksAdminQuery {
  @ApiPropertyOptional({
    description: 'Only tasks of this client id',
    type: String,
    maxLength: CLIENT_FILTER_MAX_CHARS,
  })
  client?: string;

  @ApiPropertyOptional({ description: 'Only tasks in this state', enum: TASK_STATUSES })
  state?: TaskStatus;

  @ApiPropertyOptional({
    description: 'Most tasks to return (the newest)',
    type: Number,
    minimum: 1,
    maximum: TASKS_PAGE_MAX,
    default: TASKS_PAGE_DEFAULT,
  })
  limit?: string;
}
