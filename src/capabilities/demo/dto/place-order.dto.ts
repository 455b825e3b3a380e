import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { Description, Nullable } from '../../../tools/schema';
import { SHIPPING_SPEEDS, ShippingSpeed } from '../demo.types';
import { CustomerDto } from './customer.dto';
import { OrderItemDto } from './order-item.dto';

/** Order lines one order may have: bounds what orders_place may cost. */
export const MAX_ORDER_LINES = 25;

export class PlaceOrderDto {
  @Description('Who the order is for.')
  @IsObject()
  @ValidateNested()
  @Type(() => CustomerDto)
  customer!: CustomerDto;

  @Description('1-25 order lines. Lines naming the same SKU are added together.')
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_ORDER_LINES)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => OrderItemDto)
  items!: OrderItemDto[];

  @Description(
    'Shipping speed: standard (5 days, $5.95, free from a $100 subtotal), express (2 days, $14.95), ' +
      'overnight (next day, $29.95).',
  )
  @IsIn(SHIPPING_SPEEDS)
  shipping!: ShippingSpeed;

  @Description(
    'Free-text delivery note for the warehouse, up to 500 characters; null or absent for none.',
  )
  @IsOptional()
  @Nullable()
  @IsString()
  @MaxLength(500)
  note?: string | null;
}
