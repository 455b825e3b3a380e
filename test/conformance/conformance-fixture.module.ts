import { Module } from '@nestjs/common';
import { ResourcesModule } from '../../src/resources/resources.module';
import { ConformancePromptsCapability } from './conformance-prompts.capability';
import { ConformanceResourcesProvider } from './conformance-resources.provider';
import { ConformanceToolsCapability } from './conformance-tools.capability';

/**
 * Test-only capability module: exactly what the server scenarios of the
 * official MCP conformance suite expect (tools `test_*` and
 * `json_schema_2020_12_tool`, prompts `test_*`, resources `test://...`).
 * Never part of the default graph; `npm run test:conformance` adds it.
 */
@Module({
  imports: [ResourcesModule],
  providers: [
    ConformanceToolsCapability,
    ConformancePromptsCapability,
    ConformanceResourcesProvider,
  ],
})
export class ConformanceFixtureModule {}
