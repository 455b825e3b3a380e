import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsString,
  Matches,
  MaxLength,
} from 'class-validator';
import { Description } from '../../../tools/schema';
import { SKU_PATTERN } from '../demo.types';

export class CheckStockDto {
  @Description(
    '1-20 distinct SKUs, upper case as in the catalog, e.g. ["TENT-2P-ULTRA", "STOVE-CANISTER"].',
  )
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @ArrayUnique()
  @IsString({ each: true })
  @MaxLength(40, { each: true })
  @Matches(SKU_PATTERN, { each: true })
  skus!: string[];
}
