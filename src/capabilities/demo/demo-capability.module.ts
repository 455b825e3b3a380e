import { Module } from '@nestjs/common';
import { ResourcesModule } from '../../resources/resources.module';
import { DemoPromptsCapability } from './demo-prompts.capability';
import { DemoStore } from './demo-store';
import { InventoryCapability } from './inventory.capability';
import { OrdersCapability } from './orders.capability';

/**
 * The bundled demo pack (capabilities.demo_pack): an outdoor-gear shop's
 * inventory and order tools over sample data kept in memory, and two prompts.
 */
@Module({
  // The restock prompt embeds a skill from the catalog.
  imports: [ResourcesModule],
  providers: [DemoStore, InventoryCapability, OrdersCapability, DemoPromptsCapability],
})
export class DemoCapabilityModule {}
