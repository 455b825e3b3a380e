import { IsEmail, IsString, Matches, MaxLength } from 'class-validator';
import { Description } from '../../../tools/schema';

export class CustomerDto {
  @Description('Customer account id, e.g. "CUST-1001".')
  @IsString()
  @MaxLength(20)
  @Matches(/^CUST-\d+$/)
  id!: string;

  @Description('Address the order confirmation is sent to.')
  @IsEmail()
  @MaxLength(254)
  email!: string;
}
