import { Module } from '@nestjs/common';
import { PromptRegistryModule } from '../../src/prompts/prompt-registry.module';
import { ResourcesModule } from '../../src/resources/resources.module';
import { ToolRegistryModule } from '../../src/tools/tool-registry.module';
import { ConformancePromptsCapability } from './conformance-prompts.capability';
import { ConformanceResourcesProvider } from './conformance-resources.provider';
import { ConformanceStatelessTools } from './conformance-stateless-tools.capability';
import { ConformanceTasksCapability } from './conformance-tasks.capability';
import { ConformanceToolsCapability } from './conformance-tools.capability';

/**
 * Test-only capability module: exactly what the server scenarios of the
 * official MCP conformance suite expect (tools `test_*` and
 * `json_schema_2020_12_tool`, prompts `test_*`, resources `test://...`).
 * Never part of the default graph; `npm run test:conformance` adds it.
 */
@Module({
  imports: [ResourcesModule, ToolRegistryModule, PromptRegistryModule],
  providers: [
    ConformanceToolsCapability,
    ConformancePromptsCapability,
    ConformanceResourcesProvider,
    ConformanceStatelessTools,
    ConformanceTasksCapability,
  ],
})
export class ConformanceFixtureModule {}
