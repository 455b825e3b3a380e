import { Module } from '@nestjs/common';
import { ResourcesModule } from '../../resources/resources.module';
import { DemoPromptsCapability } from './demo-prompts.capability';
import { DemoStore } from './demo-store';
import { InventoryRecountCapability } from './inventory-recount.capability';
import { InventoryCapability } from './inventory.capability';
import { OrdersCapability } from './orders.capability';

/**
 * The bundled demo pack (capabilities.demo_pack): an outdoor-gear shop's
 * inventory and order tools over sample data kept in memory (one of them,
 * inventory_recount, long enough to run as a task), and two prompts.
 */
@Module({
  // The restock prompt embeds a skill from the catalog.
  imports: [ResourcesModule],
  providers: [
    DemoStore,
    InventoryCapability,
    InventoryRecountCapability,
    OrdersCapability,
    DemoPromptsCapability,
  ],
})
export class DemoCapabilityModule {}
