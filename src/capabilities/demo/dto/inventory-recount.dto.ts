import { IsIn, IsNumber, IsOptional, Max, Min } from 'class-validator';
import { Description } from '../../../tools/schema';
import { Warehouse, WAREHOUSES } from '../demo.types';

/** 30 products at 0.8 s: a default run of about 24 s, long enough to watch it as a task. */
export const DEFAULT_SECONDS_PER_ITEM = 0.8;
export const MAX_SECONDS_PER_ITEM = 5;

export class InventoryRecountDto {
  @Description('Only products stored in this warehouse. Default: all warehouses.')
  @IsOptional()
  @IsIn(WAREHOUSES)
  warehouse?: Warehouse | null;

  @Description(
    `Seconds spent counting each product, 0-${MAX_SECONDS_PER_ITEM} (demo only: it stands for the ` +
      `walk to the shelf). Default ${DEFAULT_SECONDS_PER_ITEM}, about 24 s for the whole catalog.`,
  )
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(MAX_SECONDS_PER_ITEM)
  secondsPerItem?: number | null = DEFAULT_SECONDS_PER_ITEM;
}
