import { BadRequestException } from '@nestjs/common';

/** The 400 every admin query answers for a bad filter: the message starts with the field it names. */
export function invalidAdminQuery(field: string, problem: string): BadRequestException {
  return new BadRequestException({
    statusCode: 400,
    error: 'Bad Request',
    message: `${field}: ${problem}`,
    field,
  });
}
