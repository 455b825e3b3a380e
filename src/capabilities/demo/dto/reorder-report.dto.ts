import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { Description } from '../../../tools/schema';
import { Warehouse, WAREHOUSES } from '../demo.types';

export const DEFAULT_DELAY_MS_PER_ITEM = 50;

export class ReorderReportDto {
  @Description('Only products stored in this warehouse. Default: all warehouses.')
  @IsOptional()
  @IsIn(WAREHOUSES)
  warehouse?: Warehouse | null;

  @Description(
    `Simulated lookup time per product in milliseconds, 0-2000 (demo only; the real report queries suppliers). ` +
      `Default ${DEFAULT_DELAY_MS_PER_ITEM}.`,
  )
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(2000)
  delayMsPerItem?: number | null = DEFAULT_DELAY_MS_PER_ITEM;
}
