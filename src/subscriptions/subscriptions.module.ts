import { Module } from '@nestjs/common';
import { ResourcesModule } from '../resources/resources.module';
import { TasksModule } from '../tasks/tasks.module';
import { SubscriptionsMethods } from './subscriptions.methods';

/** subscriptions/listen: the change-notification stream of 2026-07-28. */
@Module({ imports: [ResourcesModule, TasksModule], providers: [SubscriptionsMethods] })
export class SubscriptionsModule {}
