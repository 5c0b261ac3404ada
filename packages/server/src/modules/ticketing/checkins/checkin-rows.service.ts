// What attendees use of the scans: they reach the rows through here, not through the repository.
export { checkinsOfTicket, serializeCheckin } from './checkins.repository';
