import { Module } from '@nestjs/common';
import { ToolExecutor } from './tool.executor';

/** The executor alone, so that tasks run tools the way tools/call does without depending on ToolsModule (which depends on tasks). */
@Module({ providers: [ToolExecutor], exports: [ToolExecutor] })
export class ToolExecutionModule {}
