import { IsString, Matches, MaxLength } from 'class-validator';
import { Description } from '../../../tools/schema';

export class GetOrderDto {
  @Description('Order id as returned by orders_place, e.g. "ORD-1004".')
  @IsString()
  @MaxLength(20)
  @Matches(/^ORD-\d+$/)
  orderId!: string;
}
