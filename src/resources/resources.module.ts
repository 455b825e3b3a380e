import { Module, OnModuleInit } from '@nestjs/common';
import { LedgerModule } from '../ledger/ledger.module';
import { ServerCapabilities } from '../lifecycle/server-capabilities.service';
import { SKILL_TEXT_SOURCE } from '../tools/tools.constants';
import { ResourceProviders } from './resource-providers';
import { ResourceSubscriptions } from './resource-subscriptions';
import { ResourceVisibility } from './resource-visibility';
import { ResourcesChangeNotifier } from './resources-change.notifier';
import { ResourcesMethods } from './resources.methods';
import { SkillCatalog } from './skill-catalog';
import { SkillMirrorController } from './skill-mirror.controller';
import { SkillResolver } from './skill-resolver';
import { SkillResourceProvider } from './skill-resource.provider';
import { SKILLS_EXTENSION, SkillsMethods } from './skills.methods';

/**
 * Resources: the skills catalog (skill://, the Skills extension, the HTTP
 * mirror) and the ResourceProviders registry through which capability modules
 * serve resources of their own schemes.
 */
@Module({
  imports: [LedgerModule],
  controllers: [SkillMirrorController],
  providers: [
    SkillCatalog,
    SkillResolver,
    SkillResourceProvider,
    ResourceProviders,
    ResourceVisibility,
    ResourceSubscriptions,
    ResourcesMethods,
    SkillsMethods,
    ResourcesChangeNotifier,
    { provide: SKILL_TEXT_SOURCE, useExisting: SkillCatalog },
  ],
  exports: [SkillCatalog, ResourceVisibility, ResourceProviders, SKILL_TEXT_SOURCE],
})
export class ResourcesModule implements OnModuleInit {
  constructor(private readonly capabilities: ServerCapabilities) {}

  onModuleInit(): void {
    this.capabilities.declare('resources', { subscribe: true, listChanged: true });
    this.capabilities.declareExtension(SKILLS_EXTENSION, { directoryRead: true });
  }
}
