export * from './catalogue.schemas';
export * from './public-events.schemas';
export * from './organizer-events.contract';
export * from './event-catalogue.contract';
export * from './analytics.contract';
export * from './activity.contract';
export * from './attendees.schemas';
