import { Module } from '@nestjs/common';
import { DemoStore } from './demo-store';
import { InventoryCapability } from './inventory.capability';
import { OrdersCapability } from './orders.capability';

/**
 * The bundled demo pack (capabilities.demo_pack): an outdoor-gear shop's
 * inventory and order tools over sample data kept in memory.
 */
@Module({
  providers: [DemoStore, InventoryCapability, OrdersCapability],
})
export class DemoCapabilityModule {}
