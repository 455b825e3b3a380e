import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { Description } from '../../../tools/schema';
import { Category, CATEGORIES } from '../demo.types';

export const DEFAULT_SEARCH_LIMIT = 10;

export class SearchInventoryDto {
  @Description(
    'Keywords matched case-insensitively against SKU, product name and category; every word must match. ' +
      'Use one or two words, e.g. "tent", "rain jacket", "stove".',
  )
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  query!: string;

  @Description('Only products of this category.')
  @IsOptional()
  @IsIn(CATEGORIES)
  category?: Category | null;

  @Description('When true, leave out products with zero units on hand. Default false.')
  @IsOptional()
  @IsBoolean()
  inStockOnly?: boolean | null;

  @Description(`Most products to return, 1-50. Default ${DEFAULT_SEARCH_LIMIT}.`)
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(50)
  limit?: number | null = DEFAULT_SEARCH_LIMIT;
}
