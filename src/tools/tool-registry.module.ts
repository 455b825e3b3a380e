import { Module } from '@nestjs/common';
import { ToolRegistry } from './tool.registry';

/** The tool registry alone, so that governance reads tools without depending on ToolsModule (which depends on governance's visibility policy). */
@Module({ providers: [ToolRegistry], exports: [ToolRegistry] })
export class ToolRegistryModule {}
