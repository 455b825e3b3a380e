import { IsInt, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { Description } from '../../../tools/schema';
import { SKU_PATTERN } from '../demo.types';

export class OrderItemDto {
  @Description('Catalog SKU, upper case, e.g. "TENT-2P-ULTRA" (find it with inventory_search).')
  @IsString()
  @MaxLength(40)
  @Matches(SKU_PATTERN)
  sku!: string;

  @Description('Units to order, 1-100.')
  @IsInt()
  @Min(1)
  @Max(100)
  quantity!: number;
}
